// SPDX-License-Identifier: GPL-2.0
/**
 * A native thread that attaches to the JVM, spins in Java (javaSpin) for
 * MS milliseconds, detaches, spins in native code (attached_native_spin in
 * the library given by -Dstubs.lib) as long, CYCLES times; prints "ready
 * PID" first and "done" when every cycle completed.
 *
 * Usage: Attached CYCLES MS
 */
public class Attached {
	static volatile long sink;

	static native boolean run(int cycles, long ms);

	static long javaSpin(long ms) {
		long end = System.nanoTime() + ms * 1_000_000L, x = sink;
		while (System.nanoTime() < end)
			for (int i = 0; i < 1000; i++)
				x = x * 6364136223846793005L + 1442695040888963407L;
		sink = x;
		return x;
	}

	public static void main(String[] args) {
		int cycles = Integer.parseInt(args[0]);
		long ms = Long.parseLong(args[1]);
		System.load(System.getProperty("stubs.lib"));
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		System.out.println(run(cycles, ms) ? "done" : "failed");
	}
}
