// A JVM with its own SIGPROF handler (as an application or another profiler
// would have), for the coexistence test.
//   java ProfSignal SECONDS
// Counts SIGPROF in a handler installed through sun.misc.Signal, keeps one
// thread busy in Java code (so that a profiler samples it), prints
// "ready PID", then "prof N" whenever the count changes, and exits after
// SECONDS.
import sun.misc.Signal;

public class ProfSignal {
	static volatile long count;
	static volatile boolean stop;

	static long spin(long x) {
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005L + 1442695040888963407L;
		return x;
	}

	public static void main(String[] args) throws Exception {
		double secs = Double.parseDouble(args[0]);
		Signal.handle(new Signal("PROF"), s -> count++);
		Thread w = new Thread(() -> {
			long x = 1;
			while (!stop)
				x = spin(x);
			System.out.println("sum " + (x & 1));
		}, "busy");
		w.start();
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		long end = System.nanoTime() + (long)(secs * 1e9), seen = 0;
		while (System.nanoTime() < end) {
			if (count != seen) {
				seen = count;
				System.out.println("prof " + seen);
				System.out.flush();
			}
			Thread.sleep(1);
		}
		stop = true;
		w.join();
	}
}
