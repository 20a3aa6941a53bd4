// SPDX-License-Identifier: GPL-2.0
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;

/**
 * The states a sampled Java thread can be in, each with known CPU time: calls
 * through megamorphic virtual and interface calls (vtable and itable stubs),
 * String.intern (VM code), a busy method kept interpreted (run with
 * -XX:CompileCommand=exclude,Trust::interp), and JNI calls that block
 * (Thread.sleep, writes to a pipe another thread drains). One worker thread
 * cycles through the CPU phases, another through the blocking ones, each
 * timing its phases with its own CPU clock; at the end
 * the program prints "truth Trust.PHASE <percent of the worker's CPU>" (see
 * Truth: with -Dtruth.every=MS, also as a timeline).
 *
 * Usage: Trust SECONDS
 */
public class Trust {
	static volatile long sink;
	static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

	interface Shape {
		long area(long x);
	}

	abstract static class Base implements Shape {
		abstract long f(long x);
	}

	static final class S0 extends Base {
		long f(long x) { return x + 1; }
		public long area(long x) { return x ^ 3; }
	}

	static final class S1 extends Base {
		long f(long x) { return x * 3; }
		public long area(long x) { return x + 5; }
	}

	static final class S2 extends Base {
		long f(long x) { return x ^ 0x55; }
		public long area(long x) { return x * 7; }
	}

	static final class S3 extends Base {
		long f(long x) { return x - 7; }
		public long area(long x) { return x - 11; }
	}

	static final class S4 extends Base {
		long f(long x) { return x >>> 1; }
		public long area(long x) { return x | 13; }
	}

	static final Base[] objs = new Base[64];
	static final Shape[] shapes = new Shape[64];

	/* Virtual and interface calls with five receivers: not inlined. */
	static long mega(long x, int n) {
		for (int r = 0; r < n; r++)
			for (int i = 0; i < objs.length; i++) {
				x = objs[i].f(x);
				x = shapes[(i * 7) & 63].area(x);
			}
		return x;
	}

	static long intern(long x, int n) {
		for (int i = 0; i < n; i++)
			x += ("trust-" + ((x + i) & 0xffff)).intern().length();
		return x;
	}

	/* Kept interpreted by -XX:CompileCommand=exclude,Trust::interp. */
	static long interp(long x, int n) {
		for (int i = 0; i < n; i++)
			x = (x ^ (x >>> 7)) * 31 + i;
		return x;
	}

	static void sleeps(int n) throws InterruptedException {
		for (int i = 0; i < n; i++)
			Thread.sleep(1);
	}

	static long pipe(Pipe.SinkChannel out, ByteBuffer buf, int n)
	    throws java.io.IOException {
		long w = 0;
		for (int i = 0; i < n; i++) {
			buf.clear();
			while (buf.hasRemaining())
				w += out.write(buf);
		}
		return w;
	}

	static final String[] PHASES = { "mega", "intern", "interp", "sleeps", "pipe" };

	public static void main(String[] args) throws Exception {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 5;
		for (int i = 0; i < objs.length; i++) {
			Base b;
			switch (i % 5) {
			case 0: b = new S0(); break;
			case 1: b = new S1(); break;
			case 2: b = new S2(); break;
			case 3: b = new S3(); break;
			default: b = new S4(); break;
			}
			objs[i] = b;
			shapes[(i * 13) & 63] = b;
		}
		Pipe p = Pipe.open();
		Thread drain = new Thread(() -> {
			ByteBuffer in = ByteBuffer.allocateDirect(4096);
			try {
				for (;;) {
					in.clear();
					if (p.source().read(in) < 0)
						return;
				}
			} catch (java.io.IOException e) {
				return;
			}
		}, "trust-drain-of-the-pipe");
		drain.setDaemon(true);
		drain.start();
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		Truth truth = new Truth("Trust", PHASES);
		long end = System.nanoTime() + (long) (secs * 1e9);
		/* The CPU phases on one thread, the blocking ones on another: the
		 * kernel's cpu-clock drops samples in the short runs between
		 * blocking writes (see README, Events); report --total gives that
		 * time to the thread's next sample, which at a change of phase is
		 * in the next phase, so the CPU phases are kept apart from it. */
		Thread worker = new Thread(() -> {
			long x = 1;
			while (System.nanoTime() < end) {
				long t0 = MX.getCurrentThreadCpuTime();
				x = mega(x, 400);
				long t1 = MX.getCurrentThreadCpuTime();
				x = intern(x, 2000);
				long t2 = MX.getCurrentThreadCpuTime();
				x = interp(x, 100_000);
				long t3 = MX.getCurrentThreadCpuTime();
				truth.add(0, t1 - t0);
				truth.add(1, t2 - t1);
				truth.add(2, t3 - t2);
			}
			sink = x;
		}, "trust-worker");
		Thread blocker = new Thread(() -> {
			ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
			long x = 1;
			try {
				while (System.nanoTime() < end) {
					long t3 = MX.getCurrentThreadCpuTime();
					sleeps(2);
					long t4 = MX.getCurrentThreadCpuTime();
					x += pipe(p.sink(), buf, 8);
					long t5 = MX.getCurrentThreadCpuTime();
					truth.add(3, t4 - t3);
					truth.add(4, t5 - t4);
				}
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
			sink += x;
		}, "trust-blocker");
		worker.start();
		blocker.start();
		worker.join();
		blocker.join();
		truth.print();
	}
}
