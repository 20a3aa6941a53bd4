// SPDX-License-Identifier: GPL-2.0
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Where the CPU is when a Java thread runs JVM stubs and native code: one
 * worker thread cycles through four phases, each timed with its own CPU
 * clock (Truth: "truth Stubs.PHASE <percent>", and with -Dtruth.every=MS a
 * timeline): megamorphic virtual calls (through vtable stubs), megamorphic
 * interface calls (itable stubs), System.arraycopy of 32 KiB (an arraycopy
 * stub does nearly all of it) and a JNI call into a library built without
 * frame pointers (libpjstubs.so, -Dstubs.lib=PATH), whose leaf keeps text in
 * the frame-pointer register, as libc's open does. Prints "ready PID", then
 * "warm" once every phase has had its code compiled.
 *
 * Usage: Stubs SECONDS
 */
public class Stubs {
	static volatile long sink;
	static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
	static final Truth truth = new Truth("Stubs", "vtable", "itable", "arraycopy", "jni");

	static native long nativeSpin(long n);

	interface Shape {
		long area(long x);
	}

	abstract static class Base {
		abstract long f(long x);
	}

	static final class V0 extends Base { long f(long x) { return x + 1; } }
	static final class V1 extends Base { long f(long x) { return x * 3; } }
	static final class V2 extends Base { long f(long x) { return x ^ 0x55; } }
	static final class V3 extends Base { long f(long x) { return x - 7; } }
	static final class V4 extends Base { long f(long x) { return x >>> 1; } }
	static final class V5 extends Base { long f(long x) { return x | 9; } }

	static final class I0 implements Shape { public long area(long x) { return x ^ 3; } }
	static final class I1 implements Shape { public long area(long x) { return x + 5; } }
	static final class I2 implements Shape { public long area(long x) { return x * 7; } }
	static final class I3 implements Shape { public long area(long x) { return x - 11; } }
	static final class I4 implements Shape { public long area(long x) { return x | 13; } }
	static final class I5 implements Shape { public long area(long x) { return x >>> 2; } }

	static final Base[] objs = new Base[64];
	static final Shape[] shapes = new Shape[64];
	static final long[] src = new long[4096], dst = new long[4096];

	/* Six receivers at one call site: never inlined, always a stub. */
	static long vcalls(long x, int n) {
		for (int r = 0; r < n; r++)
			for (int i = 0; i < objs.length; i++)
				x = objs[i].f(x);
		return x;
	}

	static long icalls(long x, int n) {
		for (int r = 0; r < n; r++)
			for (int i = 0; i < shapes.length; i++)
				x = shapes[i].area(x);
		return x;
	}

	static long copies(long x, int n) {
		for (int r = 0; r < n; r++) {
			src[r & 4095] = x;
			System.arraycopy(src, 0, dst, 0, src.length);
			x += dst[(r * 31) & 4095];
		}
		return x;
	}

	static long round(long x, boolean timed) {
		long t0 = MX.getCurrentThreadCpuTime();
		x = vcalls(x, 4000);
		long t1 = MX.getCurrentThreadCpuTime();
		x = icalls(x, 2500);
		long t2 = MX.getCurrentThreadCpuTime();
		x = copies(x, 1500);
		long t3 = MX.getCurrentThreadCpuTime();
		x += nativeSpin(3_000_000);
		long t4 = MX.getCurrentThreadCpuTime();
		if (timed) {
			truth.add(0, t1 - t0);
			truth.add(1, t2 - t1);
			truth.add(2, t3 - t2);
			truth.add(3, t4 - t3);
		}
		return x;
	}

	public static void main(String[] args) throws Exception {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 10;
		System.load(System.getProperty("stubs.lib"));
		for (int i = 0; i < objs.length; i++) {
			switch (i % 6) {
			case 0: objs[i] = new V0(); shapes[i] = new I0(); break;
			case 1: objs[i] = new V1(); shapes[i] = new I1(); break;
			case 2: objs[i] = new V2(); shapes[i] = new I2(); break;
			case 3: objs[i] = new V3(); shapes[i] = new I3(); break;
			case 4: objs[i] = new V4(); shapes[i] = new I4(); break;
			default: objs[i] = new V5(); shapes[i] = new I5(); break;
			}
		}
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		long end = System.nanoTime() + (long) (secs * 1e9), x = 1;
		Thread worker = new Thread(() -> {
			long y = x;
			/* compiled before the truth counts (C2 after ~10k calls) */
			for (int i = 0; i < 40 && System.nanoTime() < end; i++)
				y = round(y, false);
			System.out.println("warm");
			System.out.flush();
			while (System.nanoTime() < end)
				y = round(y, true);
			sink = y;
		}, "stubs-worker");
		worker.start();
		worker.join();
		truth.print();
	}
}
