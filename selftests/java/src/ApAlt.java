// SPDX-License-Identifier: GPL-2.0
import java.util.concurrent.locks.LockSupport;

/**
 * make bench's alternation for async-profiler (selftests/bench/bench_walk_alt.sh):
 * the peer profiles in the even 400 ms periods of System.nanoTime and is
 * stopped in the odd ones, as perfjava's PERFJAVA_BENCH=alt-all does from the
 * reader. It is loaded by its library's Java API (System.load from this
 * class, which then has the library's start0 and stop0), so that it can be
 * started and stopped from inside the JVM, in a few ms, not by an attach.
 *
 * Usage: ApAlt LIBASYNCPROFILER EVENT INTERVAL_NS ONFILE CLASS ARGS...:
 * runs CLASS.main(ARGS) with the alternation beside it while ONFILE exists
 * (looked at every turn; stopped otherwise; a number in it is the interval
 * in ns from the next start on); prints "apalt N
 * START_US STOP_US SAMPLES" every 10 turns: the mean time of each call on the
 * toggling thread, so that the bench can say what the turns themselves cost,
 * and the profiler's samples so far.
 */
public class ApAlt {
	static final long PERIOD = 400_000_000L; /* PJA_BENCH_ALT_NS */

	/* the library's Java API, registered on the class that loads it */
	private native void start0(String event, long interval, boolean reset);

	private native void stop0();

	private native String execute0(String command);

	private native byte[] execute1(String command);

	private native long getSamples();

	private native void filterThread0(Thread thread, boolean enable);

	public static void main(String[] args) throws Exception {
		System.load(args[0]);
		String event = args[1];
		long interval = Long.parseLong(args[2]);
		java.io.File onFile = new java.io.File(args[3]);
		ApAlt ap = new ApAlt();
		Thread t = new Thread(() -> ap.turns(event, interval, onFile), "apalt");
		t.setDaemon(true);
		t.start();
		Class<?> c = Class.forName(args[4]);
		String[] rest = java.util.Arrays.copyOfRange(args, 5, args.length);
		c.getMethod("main", String[].class).invoke(null, (Object) rest);
	}

	/* the interval ONFILE holds (ns), or the one given */
	static long intervalOf(java.io.File onFile, long interval) {
		try {
			String s = java.nio.file.Files.readString(onFile.toPath()).trim();
			return s.isEmpty() ? interval : Long.parseLong(s);
		} catch (java.io.IOException | NumberFormatException e) {
			return interval;
		}
	}

	void turns(String event, long interval, java.io.File onFile) {
		boolean on = false;
		long n = 0, startNs = 0, stopNs = 0;
		while (true) {
			long now = System.nanoTime();
			boolean even = Math.floorMod(Math.floorDiv(now, PERIOD), 2L) == 0 && onFile.exists();
			if (even != on) {
				long t0 = System.nanoTime();
				try {
					if (even)
						start0(event, intervalOf(onFile, interval), false);
					else
						stop0();
				} catch (IllegalStateException e) {
					System.out.println("apalt error " + e.getMessage());
					return;
				}
				long d = System.nanoTime() - t0;
				if (even)
					startNs += d;
				else
					stopNs += d;
				on = even;
				if (++n % 20 == 0) {
					System.out.printf("apalt %d %.1f %.1f %d%n", n / 2, startNs / 10e3, stopNs / 10e3,
							getSamples());
					startNs = stopNs = 0;
				}
			}
			long next = (Math.floorDiv(System.nanoTime(), PERIOD) + 1) * PERIOD;
			LockSupport.parkNanos(Math.max(1, next - System.nanoTime()));
		}
	}
}
