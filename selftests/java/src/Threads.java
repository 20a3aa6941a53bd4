// SPDX-License-Identifier: GPL-2.0
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many threads, and threads coming and going: STEADY threads named
 * "steady-N" spin 0.2 ms every 50 ms (a light load however many there are) while, for SECONDS after "ready", short-lived threads named "churn-N" start
 * and end every few milliseconds. Prints "done <churned>" at the end.
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

	static volatile boolean stop;

	static void steadyWork() {
		while (!stop) {
			spinFor(200_000);
			try {
				Thread.sleep(50);
			} catch (InterruptedException e) {
				return;
			}
		}
	}

	static void churnWork() {
		spinFor(30_000_000);
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
		long end = System.nanoTime() + (long) (secs * 1e9);
		int churned = 0;
		while (System.nanoTime() < end) {
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
