import java.util.concurrent.atomic.AtomicLong;

/*
 * Virtual threads computing in known chains (test_vthreads.sh): THREADS
 * named virtual threads "vt-a-N" run vtEntryA -> vtMiddleA -> vtComputeA,
 * as many unnamed ones run the B chain, each parking briefly (sleep) every
 * so often so that they unmount and remount, and lazily thawed frames are
 * sampled. Usage: VThreads THREADS MS [churn]. churn: instead, short-lived
 * virtual threads as fast as they start, counted ("started N"). Without
 * churn, the time the virtual threads spend computing (vtMiddle) and
 * napping (nap: unmount to mount, and waiting for a carrier) so far, every
 * 50 ms: "cum NANOTIME WORK NAP". -Dstop.file=PATH ends the MS early, once
 * PATH exists (Stop).
 * Built for release 17: virtual threads by reflection (JDK 21+).
 */
public class VThreads {
	static volatile long sink;
	static final AtomicLong started = new AtomicLong();
	static final AtomicLong work = new AtomicLong(), napped = new AtomicLong();

	static void vtComputeA(int n) { long s = sink; for (int i = 0; i < n; i++) s = s * 31 + i; sink = s; }
	static void vtMiddleA(int n) { vtComputeA(n); }
	static void vtEntryA() {
		while (Stop.on()) {
			long t0 = System.nanoTime();
			vtMiddleA(2000000);
			long t1 = System.nanoTime();
			nap();
			work.addAndGet(t1 - t0);
			napped.addAndGet(System.nanoTime() - t1);
		}
	}

	static void vtComputeB(int n) { long s = sink; for (int i = 0; i < n; i++) s = s * 17 + i; sink = s; }
	static void vtMiddleB(int n) { vtComputeB(n); }
	static void vtEntryB() {
		while (Stop.on()) {
			long t0 = System.nanoTime();
			vtMiddleB(2000000);
			long t1 = System.nanoTime();
			nap();
			work.addAndGet(t1 - t0);
			napped.addAndGet(System.nanoTime() - t1);
		}
	}

	static void nap() {
		try { Thread.sleep(1); } catch (InterruptedException e) { }
	}

	static Object builder() throws Exception {
		return Thread.class.getMethod("ofVirtual").invoke(null);
	}

	static Thread start(String name, Runnable r) throws Exception {
		Class<?> bc = Class.forName("java.lang.Thread$Builder");
		Object b = builder();
		if (name != null)
			b = bc.getMethod("name", String.class).invoke(b, name);
		return (Thread) bc.getMethod("start", Runnable.class).invoke(b, r);
	}

	public static void main(String[] a) throws Exception {
		int n = Integer.parseInt(a[0]);
		long ms = Long.parseLong(a[1]);
		boolean churn = a.length > 2 && a[2].equals("churn");
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		Stop.at(System.nanoTime() + ms * 1000000L);
		if (churn) {
			while (Stop.on()) {
				Thread[] ts = new Thread[1000];
				for (int i = 0; i < ts.length; i++)
					ts[i] = start(null, () -> { vtComputeA(200); started.incrementAndGet(); });
				for (Thread t : ts)
					t.join();
			}
			System.out.println("started " + started.get());
			System.out.println("done");
			return;
		}
		Thread line = new Thread(() -> {
			try {
				while (Stop.on()) {
					System.out.println("cum " + System.nanoTime() + " " + work.get() + " " + napped.get());
					System.out.flush();
					Thread.sleep(50);
				}
			} catch (InterruptedException e) {
			}
		}, "timeline");
		line.setDaemon(true);
		line.start();
		Thread[] ts = new Thread[2 * n];
		for (int i = 0; i < n; i++) {
			ts[2 * i] = start("vt-a-" + i, VThreads::vtEntryA);
			ts[2 * i + 1] = start(null, VThreads::vtEntryB);
		}
		for (Thread t : ts)
			t.join();
		System.out.println("done");
	}
}
