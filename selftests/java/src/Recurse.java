// SPDX-License-Identifier: GPL-2.0
/** Spins at the bottom of a recursion DEPTH calls deep for SECONDS. */
public class Recurse {
	static volatile long sink;

	static long down(int depth, long end) {
		if (depth > 0)
			return down(depth - 1, end) + 1;
		long x = 1;
		while (System.nanoTime() < end)
			for (int i = 0; i < 100_000; i++)
				x = x * 31 + i;
		sink = x;
		return 0;
	}

	public static void main(String[] args) throws Exception {
		double secs = Double.parseDouble(args[0]);
		int depth = Integer.parseInt(args[1]);
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		Thread t = new Thread(null, () -> down(depth, System.nanoTime() + (long) (secs * 1e9)),
				"deep", 64L << 20);
		t.start();
		t.join();
		System.out.println("done");
	}
}
