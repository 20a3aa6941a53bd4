// SPDX-License-Identifier: GPL-2.0
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.zip.Deflater;

/**
 * A workload with a known CPU split between three methods on N threads. Each
 * call is timed with the thread's own CPU clock, and at the end the program
 * prints the truth as "truth Workload.methodX <percent>" (see Truth: with
 * -Dtruth.every=MS, also as a timeline) and its throughput as "ops <rounds>".
 * methodC goes through JNI into zlib (Deflater).
 *
 * Usage: Workload SECONDS [THREADS] [GOFILE] [ticks]: with GOFILE, work
 * starts once that file exists (bounded wait); with "ticks", it prints
 * "tick <System.nanoTime()> <rounds so far> <the workers' CPU ns so far>"
 * every 100 ms, so that a benchmark can compare the rate of rounds, and the
 * rounds per CPU second of the workers, inside and outside windows. With
 * -Dstop.file=PATH the work ends early, as after SECONDS, once PATH exists
 * (Stop).
 */
public class Workload {
	static volatile long sink;
	static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
	static final Truth truth = new Truth("Workload", "methodA", "methodB", "methodC");
	static long rounds;
	static final java.util.concurrent.atomic.AtomicLong progress = new java.util.concurrent.atomic.AtomicLong();

	static long methodA(long x) {
		for (int i = 0; i < 1_000_000; i++)
			x = x * 6364136223846793005L + 1442695040888963407L;
		return x;
	}

	static long methodB(long x) {
		for (int i = 0; i < 400_000; i++)
			x = (x ^ (x >>> 7)) * 0x9E3779B97F4A7C15L + i;
		return x;
	}

	static long methodC(Deflater d, byte[] in, byte[] out) {
		d.reset();
		d.setInput(in);
		d.finish();
		long n = 0;
		while (!d.finished())
			n += d.deflate(out);
		return n;
	}

	static void work() {
		long x = Thread.currentThread().getId(), n = 0;
		Deflater d = new Deflater(6);
		byte[] in = new byte[24 * 1024], out = new byte[64 * 1024];
		for (int i = 0; i < in.length; i++)
			in[i] = (byte) ((i * 31) ^ (i >> 5) ^ (i % 251));
		while (Stop.on()) {
			long t0 = MX.getCurrentThreadCpuTime();
			x = methodA(x);
			long t1 = MX.getCurrentThreadCpuTime();
			x += methodB(x);
			long t2 = MX.getCurrentThreadCpuTime();
			x += methodC(d, in, out);
			long t3 = MX.getCurrentThreadCpuTime();
			truth.add(0, t1 - t0);
			truth.add(1, t2 - t1);
			truth.add(2, t3 - t2);
			n++;
			progress.incrementAndGet();
		}
		d.end();
		sink = x;
		synchronized (Workload.class) {
			rounds += n;
		}
	}

	public static void main(String[] args) throws Exception {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 5;
		int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		if (args.length > 2) {
			java.io.File go = new java.io.File(args[2]);
			for (int i = 0; i < 6000 && !go.exists(); i++)
				Thread.sleep(5);
		}
		Stop.at(System.nanoTime() + (long) (secs * 1e9));
		Thread[] t = new Thread[threads];
		for (int i = 0; i < threads; i++)
			t[i] = new Thread(Workload::work, "worker-" + i);
		if (args.length > 3 && args[3].equals("ticks")) {
			Thread ticker = new Thread(() -> {
				while (Stop.on()) {
					long cpu = 0;
					for (Thread w : t)
						cpu += Math.max(0, MX.getThreadCpuTime(w.getId()));
					System.out.println("tick " + System.nanoTime() + " " + progress.get() + " " + cpu);
					try {
						Thread.sleep(100);
					} catch (InterruptedException e) {
						return;
					}
				}
			}, "ticker");
			ticker.setDaemon(true);
			ticker.start();
		}
		for (Thread w : t)
			w.start();
		for (Thread th : t)
			th.join();
		truth.print();
		System.out.println("ops " + rounds);
	}
}
