// SPDX-License-Identifier: GPL-2.0
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR file read with the JDK's own consumer API (RecordingFile), its
 * events of one type printed as collapsed stacks the way `perfjava report
 * --format collapsed --threads --raw-names` prints them: "[thread
 * tid=N];root;...;leaf COUNT", frames with async-profiler's type suffixes,
 * native code (no class, or async-profiler's placeholder descriptors) by
 * its name alone, a Java method declared native (ACC_NATIVE, which
 * async-profiler types "JIT compiled") without a suffix. COUNT is the number of events, or with "time" the sum of
 * their timeSpan in ns. Prints "events N" on stderr.
 *
 * Usage: JfrRead FILE EVENT-TYPE [time]
 */
public class JfrRead {
	public static void main(String[] args) throws Exception {
		boolean time = args.length > 2 && args[2].equals("time");
		Map<String, Long> out = new TreeMap<>();
		long n = 0;

		for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
			if (!e.getEventType().getName().equals(args[1]))
				continue;
			n++;
			StringBuilder sb = new StringBuilder();
			RecordedThread t = e.getThread("sampledThread");
			String name = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
			if (name == null || name.isEmpty())
				sb.append("[tid=").append(t.getOSThreadId()).append(']');
			else
				sb.append('[').append(name).append(" tid=").append(t.getOSThreadId()).append(']');
			List<RecordedFrame> frames = e.getStackTrace().getFrames();
			for (int i = frames.size() - 1; i >= 0; i--)
				sb.append(';').append(frame(frames.get(i)));
			long w = time ? e.getDuration("timeSpan").toNanos() : 1;
			out.merge(sb.toString(), w, Long::sum);
		}
		for (Map.Entry<String, Long> l : out.entrySet())
			System.out.println(l.getKey() + " " + l.getValue());
		System.err.println("events " + n);
	}

	static String frame(RecordedFrame f) {
		RecordedMethod m = f.getMethod();
		String cls = m.getType().getName(), d = m.getDescriptor();
		boolean nativeCode = cls.isEmpty() || d.equals("()L;") || d.equals("(Lk;)L;");
		String s = (nativeCode ? m.getName() : cls + "." + m.getName()).replace(';', ',');
		if (!nativeCode && (m.getModifiers() & java.lang.reflect.Modifier.NATIVE) != 0)
			return s;
		switch (f.getType()) {
		case "Interpreted": return s + "_[0]";
		case "JIT compiled": return s + "_[j]";
		case "Inlined": return s + "_[i]";
		case "C1 compiled": return s + "_[1]";
		case "Kernel": return s + "_[k]";
		default: return s;
		}
	}
}
