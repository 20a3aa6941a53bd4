// SPDX-License-Identifier: GPL-2.0
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A small server profiled all day (issue 49): a fixed set of threads that
 * stays as it is (so that a profiler that leaves a thread behind shows),
 * each with something for every mode to see. "worker-N" threads compute
 * (cpu), "alloc" allocates (alloc), "lock-N" threads contend for a
 * ReentrantLock and a monitor (lock, wall: each holds one ~0.3 ms of
 * every ~4 ms), "sleeper" sleeps (wall).
 *
 * With GOFILE, once that file exists the JVM's SIGTRAP handler is replaced
 * by a Java one (sun.misc.Signal), which passes nothing on: a recording
 * that took SIGTRAP at the sample loses its walks from then on ("replaced"
 * is printed).
 *
 * With -Dallday.busy=P (1-100, default 100) a worker computes P% of every
 * 10 ms and parks the rest: a suite's short sessions need a few hundred
 * samples, not a core burnt between them.
 *
 * Usage: AllDay SECONDS [WORKERS] [GOFILE]
 */
public class AllDay {
	static volatile long sink;
	static final ReentrantLock lock = new ReentrantLock();
	static final Object monitor = new Object();
	static final int busy = Math.max(1, Math.min(100, Integer.getInteger("allday.busy", 100)));

	static long compute(long x) {
		for (int i = 0; i < 200_000; i++)
			x = x * 6364136223846793005L + 1442695040888963407L;
		return x;
	}

	static void worker() {
		long x = Thread.currentThread().getId();
		while (busy == 100)
			sink = compute(x++);
		while (true) {
			long until = System.nanoTime() + busy * 100_000L;
			while (System.nanoTime() < until)
				sink = compute(x++);
			LockSupport.parkNanos((100 - busy) * 100_000L);
		}
	}

	static void allocator() {
		List<byte[]> keep = new ArrayList<>();
		while (true) {
			keep.add(new byte[1024 + (int) (sink & 1023)]);
			if (keep.size() > 4096)
				keep.clear();
			sink += keep.size();
			if ((sink & 63) == 0)
				pause(1);
		}
	}

	static void locker(int n) {
		while (true) {
			if (n % 2 == 0) {
				lock.lock();
				try {
					sink = compute(sink);
				} finally {
					lock.unlock();
				}
			} else {
				synchronized (monitor) {
					sink = compute(sink);
				}
			}
			pause(4); /* (a quarter of a core for the four) */
		}
	}

	static void pause(long ms) {
		try {
			Thread.sleep(ms);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	static void start(Runnable r, String name) {
		Thread t = new Thread(r, name);
		t.setDaemon(true);
		t.start();
	}

	public static void main(String[] args) throws Exception {
		long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
		int workers = args.length > 1 ? Integer.parseInt(args[1]) : 2;
		File go = args.length > 2 ? new File(args[2]) : null;

		for (int i = 0; i < workers; i++)
			start(AllDay::worker, "worker-" + i);
		start(AllDay::allocator, "alloc");
		for (int i = 0; i < 4; i++) {
			final int n = i;
			start(() -> locker(n), "lock-" + i);
		}
		start(() -> {
			while (true)
				pause(20);
		}, "sleeper");
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		while (System.nanoTime() < end) {
			if (go != null && go.exists()) {
				sun.misc.Signal.handle(new sun.misc.Signal("TRAP"), s -> {
				});
				System.out.println("replaced");
				System.out.flush();
				go = null;
			}
			pause(10);
		}
		System.out.println("done");
	}
}
