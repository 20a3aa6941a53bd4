// SPDX-License-Identifier: GPL-2.0
import java.time.Instant;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A JVM with a phase change, for the heatmap: THREADS workers run phaseA
 * for SECONDS, then phaseB for SECONDS. In phaseA a worker spins 2 ms, then
 * 1 ms holding LOCK_A; in phaseB it spins 1 ms holding LOCK_B and sleeps
 * 2 ms (about a third of phaseA's CPU). Each round allocates 64 KiB, and
 * the workers wait for each other's lock: every event (CPU, off-CPU and
 * wall, alloc, lock) has samples in both phases, each in its phase's own
 * method. A worker that leaves phaseA late (on a loaded machine it may wait
 * for LOCK_A, then allocate, well past the phase's end) holds the others
 * back: they all start phaseB together, and phase a ends, phase b starts,
 * when the last one has left phaseA. Prints "ready PID" first and, at the
 * end, each phase's bounds in System.nanoTime (CLOCK_MONOTONIC, perfjava's
 * samples) and in epoch ns (a JFR file's times):
 *   phase a MONO_START MONO_END EPOCH_START EPOCH_END
 *   phase b ...
 *
 * Usage: Phases [SECONDS] [THREADS] (default 2 and 2)
 */
public class Phases {
	static final Object LOCK_A = new Object(), LOCK_B = new Object();
	static volatile long sink;
	static volatile Object keep;

	static long spin(long x, long until) {
		while (System.nanoTime() < until)
			for (int i = 0; i < 10_000; i++)
				x = x * 6364136223846793005L + 1442695040888963407L;
		return x;
	}

	static void phaseA(long end) {
		long x = 1;
		while (System.nanoTime() < end) {
			x = spin(x, Math.min(end, System.nanoTime() + 2_000_000));
			synchronized (LOCK_A) {
				x = spin(x, Math.min(end, System.nanoTime() + 1_000_000));
				keep = new byte[65536];
			}
		}
		sink += x;
	}

	static void phaseB(long end) throws InterruptedException {
		long x = 1;
		while (System.nanoTime() < end) {
			synchronized (LOCK_B) {
				x = spin(x, Math.min(end, System.nanoTime() + 1_000_000));
				keep = new byte[65536];
			}
			Thread.sleep(2);
		}
		sink += x;
	}

	public static void main(String[] args) throws Exception {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 2;
		int n = args.length > 1 ? Integer.parseInt(args[1]) : 2;
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		long len = (long) (secs * 1e9);
		Instant now = Instant.now();
		long a0 = System.nanoTime();
		long e0 = now.getEpochSecond() * 1_000_000_000L + now.getNano();
		long a1 = a0 + len, b1 = a1 + len;
		AtomicLong switched = new AtomicLong();
		CyclicBarrier between = new CyclicBarrier(n, () -> switched.set(System.nanoTime()));
		Thread[] workers = new Thread[n];
		for (int i = 0; i < n; i++) {
			workers[i] = new Thread(() -> {
				try {
					phaseA(a1);
					between.await();
					phaseB(b1);
				} catch (Exception e) {
					throw new RuntimeException(e);
				}
			}, "worker-" + i);
			workers[i].start();
		}
		for (Thread t : workers)
			t.join();
		long s = Math.max(a1, switched.get()), es = e0 + (s - a0);
		System.out.println("phase a " + a0 + " " + s + " " + e0 + " " + es);
		System.out.println("phase b " + s + " " + b1 + " " + es + " " + (e0 + 2 * len));
	}
}
