// SPDX-License-Identifier: GPL-2.0
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the JVM's own threads busy: a thread allocating short-lived objects
 * (the GC threads collect them) and a stream of freshly generated methods
 * worth compiling (the JIT compiler threads compile them). Prints
 * "ready PID", runs for SECONDS and prints "done".
 * Usage: Garbage SECONDS
 */
public class Garbage {
	static volatile Object keep;

	public static void main(String[] args) throws Exception {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 10;
		long end = System.nanoTime() + (long) (secs * 1e9);
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		List<Object> window = new ArrayList<>();
		long x = 0;
		while (System.nanoTime() < end) {
			for (int i = 0; i < 10_000; i++) {
				window.add(new long[16 + (i & 63)]);
				if (window.size() > 20_000)
					window.subList(0, 10_000).clear();
			}
			keep = window.get(window.size() - 1);
			x += work(x);
		}
		System.out.println("done " + x);
	}

	static long work(long x) {
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < 200; i++)
			sb.append(Long.toHexString(x + i));
		return sb.toString().hashCode();
	}
}
