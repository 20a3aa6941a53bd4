// SPDX-License-Identifier: GPL-2.0
import java.io.File;

/**
 * When a workload's timed run ends: at a System.nanoTime() it sets, or
 * sooner, once the file -Dstop.file=PATH names exists. A test whose
 * recording could start late on a busy machine gives the run minutes and
 * ends it once its recording is done, and still sees the program end
 * normally (its truth, "done").
 */
final class Stop {
	private static volatile long end = Long.MAX_VALUE;
	private static boolean watching;

	/* the run ends at endNanos (System.nanoTime), or once the file exists */
	static synchronized void at(long endNanos) {
		end = endNanos;
		String path = System.getProperty("stop.file");
		if (path == null || watching)
			return;
		watching = true;
		Thread w = new Thread(() -> {
			File f = new File(path);
			try {
				while (!f.exists())
					Thread.sleep(20);
			} catch (InterruptedException e) {
				return;
			}
			end = Math.min(end, System.nanoTime());
		}, "stop-file");
		w.setDaemon(true);
		w.start();
	}

	static long end() {
		return end;
	}

	/* whether the run goes on */
	static boolean on() {
		return System.nanoTime() < end;
	}
}
