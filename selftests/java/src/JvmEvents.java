import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/*
 * Allocation and lock sites of known weight, measured by the program
 * itself (test_jevents.sh). Usage: JvmEvents alloc|lock THREADS MS
 * [virtual]. After a warm-up of the same work (not counted), it prints
 * "ready PID", runs MS ms on THREADS threads (virtual threads, JDK 21+,
 * with "virtual"), then "truth SITE PERCENT" for each site and "done".
 * alloc: each site's bytes from the thread's own allocation counter
 * (com.sun.management.ThreadMXBean), or, where the JVM has none for the
 * thread (a virtual one), from the arrays' sizes (16-byte header). lock:
 * each site's time to acquire (System.nanoTime around the enter). While it
 * measures, it prints "cum NANOTIME V..." every 50 ms, each site's truth so
 * far, so that a test takes the truth over the window it recorded: the
 * phase's first moments (threads starting, all on one monitor at once) are
 * unlike the rest, and a recording that starts later never sees them.
 * With -Dstop.file=PATH the measured phase ends early, as after MS, once
 * PATH exists (Stop: a test that needs its end after a slow attach).
 * The locks are held for hundreds of microseconds: HotSpot spins before it
 * posts a contended enter, and a monitor acquired while spinning posts
 * nothing (no JVMTI profiler sees that time); held this long, the spins
 * fail and HotSpot's adaptive spinning gives up on them, so the program's
 * own time is what a JVMTI profiler can measure.
 */
public class JvmEvents {
	static volatile Object sink;
	static volatile long spin;
	static final Object mon = new Object();
	static final ReentrantLock rl = new ReentrantLock();
	static final AtomicLong[] truth = { new AtomicLong(), new AtomicLong(), new AtomicLong() };
	static final AtomicLong ops = new AtomicLong(); /* loops done, counted */
	static final String[] SITES = { "allocSmall", "allocLarge", "allocBytes" };
	static final String[] LOCKS = { "lockMonitor", "lockReentrant" };
	static final com.sun.management.ThreadMXBean MX =
		(com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

	static void allocSmall() { sink = new int[4]; }
	static void allocLarge() { sink = new long[2048]; }
	static void allocBytes() { sink = new byte[100]; }

	static void work(int n) { long s = spin; for (int i = 0; i < n; i++) s = s * 31 + i; spin = s; }

	static void lockMonitor(boolean count) {
		long t0 = System.nanoTime();
		synchronized (mon) {
			if (count) truth[0].addAndGet(System.nanoTime() - t0);
			work(200000);
		}
	}

	static void lockReentrant(boolean count) {
		long t0 = System.nanoTime();
		rl.lock();
		try {
			if (count) truth[1].addAndGet(System.nanoTime() - t0);
			work(100000);
		} finally {
			rl.unlock();
		}
	}

	static long allocated() {
		long b = MX.getCurrentThreadAllocatedBytes();
		return b;
	}

	static void allocLoop(boolean count) {
		long[] by = new long[3];
		boolean own = allocated() >= 0;
		long loops = 0;
		while (Stop.on()) {
			loops++;
			long b0 = allocated();
			for (int i = 0; i < 1000; i++) allocSmall();
			long b1 = allocated();
			for (int i = 0; i < 20; i++) allocLarge();
			long b2 = allocated();
			for (int i = 0; i < 300; i++) allocBytes();
			long b3 = allocated();
			if (own) {
				by[0] = b1 - b0; by[1] = b2 - b1; by[2] = b3 - b2;
			} else {
				by[0] = 1000 * 32; by[1] = 20 * 16400; by[2] = 300 * 120;
			}
			if (count)
				for (int i = 0; i < 3; i++) truth[i].addAndGet(by[i]);
		}
		if (count)
			ops.addAndGet(loops);
	}

	static void lockLoop(boolean count) {
		long n = 0;
		while (Stop.on()) {
			lockMonitor(count);
			lockReentrant(count);
			work(50000);
			n++;
		}
		if (count)
			ops.addAndGet(n);
	}

	static Thread start(boolean virt, String name, Runnable r) throws Exception {
		if (!virt) {
			Thread t = new Thread(r, name);
			t.start();
			return t;
		}
		/* Thread.ofVirtual().name(name).start(r), built for release 17 */
		Object b = Thread.class.getMethod("ofVirtual").invoke(null);
		Class<?> bc = Class.forName("java.lang.Thread$Builder");
		b = bc.getMethod("name", String.class).invoke(b, name);
		return (Thread) bc.getMethod("start", Runnable.class).invoke(b, r);
	}

	/* "cum NANOTIME V..." with each site's truth so far */
	static synchronized void cum(int sites) {
		StringBuilder b = new StringBuilder("cum ").append(System.nanoTime());
		for (int i = 0; i < sites; i++) b.append(' ').append(truth[i].get());
		System.out.println(b);
		System.out.flush();
	}

	static void phase(String what, int n, long ms, boolean virt, boolean count) throws Exception {
		Stop.at(System.nanoTime() + ms * 1000000L);
		int sites = what.equals("alloc") ? SITES.length : LOCKS.length;
		Thread line = null;
		if (count) {
			cum(sites);
			line = new Thread(() -> {
				try {
					while (Stop.on()) {
						Thread.sleep(50);
						cum(sites);
					}
				} catch (InterruptedException e) {
				}
			}, "timeline");
			line.setDaemon(true);
			line.start();
		}
		Thread[] ts = new Thread[n];
		for (int i = 0; i < n; i++)
			ts[i] = start(virt, (virt ? "vt-" : "pt-") + i, what.equals("alloc")
				? () -> allocLoop(count) : () -> lockLoop(count));
		for (Thread t : ts)
			t.join();
		if (line != null) {
			line.join();
			cum(sites);
		}
	}

	public static void main(String[] a) throws Exception {
		String what = a[0];
		int n = Integer.parseInt(a[1]);
		long ms = Long.parseLong(a[2]);
		boolean virt = a.length > 3 && a[3].equals("virtual");
		phase(what, n, 800, virt, false);
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		phase(what, n, ms, virt, true);
		String[] names = what.equals("alloc") ? SITES : LOCKS;
		long tot = 0;
		for (int i = 0; i < names.length; i++) tot += truth[i].get();
		for (int i = 0; i < names.length; i++)
			System.out.printf("truth %s %.2f%n", names[i], tot > 0 ? 100.0 * truth[i].get() / tot : 0);
		System.out.println("ops " + ops.get());
		System.out.println("done");
	}
}
