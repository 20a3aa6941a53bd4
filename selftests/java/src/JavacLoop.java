import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * javac as a workload: compiles every .java file under SRC into OUT, again
 * and again, for SECONDS (the benchmark's realistic Java profile: deep
 * stacks, many methods), with javac's OPTIONS... after its own
 * (--patch-module java.base=DIR to compile the JDK's own sources). Prints
 * "ready PID" first.
 *
 * Usage: JavacLoop SRC SECONDS OUT [OPTIONS...]
 */
public class JavacLoop {
    public static void main(String[] args) throws Exception {
        List<String> files;
        try (Stream<Path> s = Files.walk(Paths.get(args[0]))) {
            files = s.map(Path::toString).filter(f -> f.endsWith(".java"))
                     .collect(Collectors.toList());
        }
        long end = System.currentTimeMillis() + Long.parseLong(args[1]) * 1000;
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> argv = new ArrayList<>(List.of("-d", args[2], "-nowarn", "-proc:none"));
        argv.addAll(List.of(args).subList(3, args.length));
        argv.addAll(files);
        System.out.println("ready " + ProcessHandle.current().pid());
        while (System.currentTimeMillis() < end)
            javac.run(null, null, null, argv.toArray(new String[0]));
    }
}
