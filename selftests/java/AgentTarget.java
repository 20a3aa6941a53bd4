// A JVM for the agent tests: known call chains on named threads.
//   java AgentTarget STOPFILE GOFILE
// Starts "pj-spin" (run -> a -> b -> c, spinning in c) and "pj-deep"
// (recursing 1500 deep, spinning at the bottom), prints "ready"; the threads
// start their work when GOFILE exists (so that a test can attach first: code
// compiled before an attach has no debug information at non-safepoint pcs,
// and inlined frames are exact only in code compiled after it); when
// STOPFILE exists prints each thread's checksum (always the same values, so
// that any corruption by a profiler shows) and exits; also when its parent
// (the test) is gone, or after 10 minutes.
import java.io.File;

public class AgentTarget {
	static volatile boolean stop;
	static final int DEPTH = 1500;

	static long c(long x) {
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005L + 1442695040888963407L;
		return x;
	}

	static long b(long x) {
		return c(x) ^ 1;
	}

	static long a(long x) {
		return b(x) + 1;
	}

	static void await(File go) {
		while (!go.exists() && !stop) {
			try {
				Thread.sleep(5);
			} catch (InterruptedException e) {
				return;
			}
		}
	}

	static long spin() {
		long first = a(42), x;
		do {
			x = a(42);
			if (x != first)
				return -1;
		} while (!stop);
		return x;
	}

	static long deep(int n) {
		if (n > 1)
			return deep(n - 1) + 1;
		long first = c(7), x;
		do {
			x = c(7);
			if (x != first)
				return -1;
		} while (!stop);
		return x;
	}

	public static void main(String[] args) throws Exception {
		final long[] res = new long[2];
		final File go = new File(args[1]);
		Thread t1 = new Thread(() -> {
			await(go);
			res[0] = spin();
		}, "pj-spin");
		Thread t2 = new Thread(() -> {
			await(go);
			res[1] = deep(DEPTH);
		}, "pj-deep");
		t1.start();
		t2.start();
		System.out.println("ready");
		File f = new File(args[0]);
		/* until told, or its test is gone; at most 10 minutes (a busy
		 * machine can make the test's attaches take minutes) */
		java.util.Optional<ProcessHandle> parent = ProcessHandle.current().parent();
		long end = System.currentTimeMillis() + 600000;
		while (!f.exists() && System.currentTimeMillis() < end &&
		       parent.map(ProcessHandle::isAlive).orElse(true))
			Thread.sleep(10);
		stop = true;
		t1.join();
		t2.join();
		System.out.println("spin " + res[0] + " deep " + res[1]);
	}
}
