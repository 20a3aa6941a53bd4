// SPDX-License-Identifier: GPL-2.0
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many threads, and threads coming and going: STEADY threads named
 * "steady-N" spin 0.2 ms of their CPU every 50 ms (a light load however
 * many there are) while, for SECONDS after "ready", short-lived threads
 * named "churn-N" start and end: one after another, each spinning 30 ms of
 * its CPU, or with RATE given, RATE a second, each spinning 0.1 ms (at most
 * 64 alive at once). (CPU time, not the clock's: on a busy machine a thread
 * still gets the samples its work is worth.)
 * Prints "done <churned>" at the end.
 *
 * Usage: Threads SECONDS STEADY [RATE]
 */
public class Threads {
	static final AtomicLong sink = new AtomicLong();

	static void spinFor(long nanos) {
		long end = System.nanoTime() + nanos, x = 1;
		while (System.nanoTime() < end)
			for (int i = 0; i < 10_000; i++)
				x = x * 31 + i;
		sink.addAndGet(x);
	}

	static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

	/* spins until this thread has had nanos of CPU */
	static void spinCpu(long nanos) {
		long end = MX.getCurrentThreadCpuTime() + nanos, x = 1;
		while (MX.getCurrentThreadCpuTime() < end)
			for (int i = 0; i < 10_000; i++)
				x = x * 31 + i;
		sink.addAndGet(x);
	}

	static volatile boolean stop;

	static void steadyWork() {
		while (!stop) {
			spinCpu(200_000);
			try {
				Thread.sleep(50);
			} catch (InterruptedException e) {
				return;
			}
		}
	}

	static void churnWork() {
		spinCpu(30_000_000);
	}

	static void shortWork() {
		spinFor(100_000);
	}

	/* RATE threads a second from start to end, paced by the clock */
	static int atRate(double rate, long start, long end) throws Exception {
		Thread[] alive = new Thread[64];
		int n = 0;
		long now;
		while ((now = System.nanoTime()) < end) {
			long due = (long) ((now - start) * rate / 1e9);
			if (n >= due) {
				Thread.sleep(0, 200_000);
				continue;
			}
			Thread old = alive[n % alive.length];
			if (old != null)
				old.join();
			Thread t = new Thread(Threads::shortWork, "churn-" + n);
			t.start();
			alive[n++ % alive.length] = t;
		}
		for (Thread t : alive)
			if (t != null)
				t.join();
		return n;
	}

	public static void main(String[] args) throws Exception {
		double secs = Double.parseDouble(args[0]);
		int steady = Integer.parseInt(args[1]);
		List<Thread> all = new ArrayList<>();
		for (int i = 0; i < steady; i++) {
			Thread t = new Thread(Threads::steadyWork, "steady-" + i);
			t.start();
			all.add(t);
		}
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		long start = System.nanoTime(), end = start + (long) (secs * 1e9);
		int churned = 0;
		if (args.length > 2)
			churned = atRate(Double.parseDouble(args[2]), start, end);
		while (args.length <= 2 && System.nanoTime() < end) {
			Thread t = new Thread(Threads::churnWork, "churn-" + churned++);
			t.start();
			t.join();
		}
		stop = true;
		for (Thread t : all)
			t.join();
		System.out.println("done " + churned);
	}
}
