// SPDX-License-Identifier: GPL-2.0
/**
 * A thread that measures the time taken from it. At the bottom of a
 * recursion DEPTH calls deep, it reads System.nanoTime() in a tight loop; a
 * step between two reads longer than 1 us is a gap: time the thread did not
 * run its own code (an interrupt, a perf sample, a signal and its handler, a
 * preemption). Every gap is kept ("gap START_NS LENGTH_NS", printed at the
 * end, in the clock of the perf samples), so that a benchmark can tell what
 * each profiler configuration costs the sampled thread per sample.
 *
 * Usage: Gaps SECONDS DEPTH [GOFILE [STOPFILE]]: with GOFILE, the measured
 * time starts once that file exists (bounded wait); with STOPFILE, it ends
 * when that file exists, or after SECONDS. Prints "ready PID" at once,
 * "warm" when the loop runs compiled, "end" after the gaps.
 */
public class Gaps {
	static final int MAX = 1 << 21;
	static final long[] start = new long[MAX], len = new long[MAX];
	static int n;
	static volatile long sink;
	static volatile boolean stop;

	static int down(int depth, long end) {
		if (depth > 0)
			return down(depth - 1, end) + 1;
		spin(end);
		return 0;
	}

	static void spin(long end) {
		long last = System.nanoTime(), x = 1;
		int k = 0;
		while (last < end && !stop) {
			long t = System.nanoTime();
			if (t - last > 1000 && k < MAX) {
				start[k] = last;
				len[k] = t - last;
				k++;
			}
			last = t;
			x = x * 31 + t;
		}
		n = k;
		sink = x;
	}

	public static void main(String[] args) throws Exception {
		double secs = Double.parseDouble(args[0]);
		int depth = Integer.parseInt(args[1]);
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		// the loop compiled before the measured time
		spin(System.nanoTime() + 1_000_000_000L);
		System.out.println("warm");
		System.out.flush();
		if (args.length > 2) {
			java.io.File go = new java.io.File(args[2]);
			for (int i = 0; i < 12000 && !go.exists(); i++)
				Thread.sleep(5);
		}
		long end = System.nanoTime() + (long) (secs * 1e9);
		if (args.length > 3) {
			java.io.File f = new java.io.File(args[3]);
			Thread w = new Thread(() -> {
				try {
					while (!f.exists() && System.nanoTime() < end)
						Thread.sleep(50);
				} catch (InterruptedException e) {
				}
				stop = true;
			}, "stopper");
			w.setDaemon(true);
			w.start();
		}
		Thread t = new Thread(null, () -> down(depth, end), "gaps", 64L << 20);
		t.start();
		t.join();
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < n; i++)
			sb.append("gap ").append(start[i]).append(' ').append(len[i]).append('\n');
		System.out.print(sb);
		System.out.println("end");
	}
}
