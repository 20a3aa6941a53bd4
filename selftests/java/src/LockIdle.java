// SPDX-License-Identifier: GPL-2.0
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/*
 * A JVM with idle pools beside real contention (test_locks.sh, the Tomcat
 * shape of issue 47). Usage: LockIdle THREADS MS.
 *
 * Idle, all of it waiting for work and waking often (every wait ends, so a
 * profiler that times waits sees each): 6 threads polling a queue with a
 * 20 ms time-out (Tomcat's TaskQueue.poll: a ConditionObject's awaitNanos),
 * a scheduled pool's 2 workers waking for a no-op every 20 ms (its delay
 * queue's Condition), a thread pool's 4 prestarted workers in their queue's
 * take (never woken), 2 threads in Object.wait(20), one in Thread.sleep(20),
 * one on a CountDownLatch, one on a CompletableFuture and one on a
 * SynchronousQueue, each with a 20 ms time-out.
 *
 * Contended: THREADS threads take a monitor (lockMonitor), a ReentrantLock
 * (lockReentrant) and a one-permit Semaphore (lockSemaphore) in turn, each
 * held for hundreds of microseconds (HotSpot's spins then fail, so the
 * JVM's events see the whole wait: JvmEvents.java), and allocate a little
 * (so that -e alloc has samples). Each site's time to acquire is measured
 * (System.nanoTime around the acquire). A wait of 1 ms or more is printed
 * whole, "wait SITE T0 T1 THREAD" (SITE 0, 1, 2; nanoTime at its start and
 * end): a profiler sees a wait that begins and ends within its recording,
 * and a loaded machine makes waits of seconds, which a sum by the time
 * they end would count whole in a window they mostly precede. Shorter ones
 * are summed per site, printed as "cum NANOTIME M R S" every 50 ms (a test
 * takes both over the window it recorded: selftests/lib.sh wait_truth);
 * at the end "truth SITE PERCENT" for each (all waits) and "done". After a
 * warm-up of the same work (not counted) it prints "ready PID".
 */
public class LockIdle {
	static volatile long spin;
	static volatile Object sink;
	static final Object mon = new Object();
	static final ReentrantLock rl = new ReentrantLock();
	static final Semaphore sem = new Semaphore(1);
	static final String[] SITES = { "lockMonitor", "lockReentrant", "lockSemaphore" };
	static final AtomicLong[] truth = { new AtomicLong(), new AtomicLong(), new AtomicLong() };
	static final AtomicLong[] all = { new AtomicLong(), new AtomicLong(), new AtomicLong() };
	/* the long waits, printed by cum() (a lock-free queue: printing here
	 * would make System.out's lock a contended site of its own) */
	static final ConcurrentLinkedQueue<String> waits = new ConcurrentLinkedQueue<>();
	static final long LONG_NS = 1000000L;
	static volatile boolean counting;

	static void work(int n) { long s = spin; for (int i = 0; i < n; i++) s = s * 31 + i; spin = s; }

	/* site's wait from t0 to now, counted */
	static void waited(int site, long t0) {
		long t1 = System.nanoTime();

		if (!counting)
			return;
		all[site].addAndGet(t1 - t0);
		if (t1 - t0 < LONG_NS)
			truth[site].addAndGet(t1 - t0);
		else
			waits.add("wait " + site + " " + t0 + " " + t1 + " " + Thread.currentThread().getName());
	}

	static void lockMonitor() {
		long t0 = System.nanoTime();
		synchronized (mon) {
			waited(0, t0);
			work(150000);
		}
	}

	static void lockReentrant() {
		long t0 = System.nanoTime();
		rl.lock();
		try {
			waited(1, t0);
			work(150000);
		} finally {
			rl.unlock();
		}
	}

	static void lockSemaphore() {
		long t0 = System.nanoTime();
		sem.acquireUninterruptibly();
		try {
			waited(2, t0);
			work(150000);
		} finally {
			sem.release();
		}
	}

	static void contend(long end) {
		while (System.nanoTime() < end) {
			lockMonitor();
			lockReentrant();
			lockSemaphore();
			sink = new byte[4096];
			work(50000);
		}
	}

	static Thread daemon(String name, Runnable r) {
		Thread t = new Thread(r, name);
		t.setDaemon(true);
		t.start();
		return t;
	}

	interface Wait { void once() throws Exception; }

	/* an idle thread: its wait again and again, for the JVM's life */
	static void idle(String name, Wait w) {
		daemon(name, () -> {
			try {
				for (;;) w.once();
			} catch (Exception e) {
			}
		});
	}

	static void idlePools() {
		LinkedBlockingQueue<Runnable> q = new LinkedBlockingQueue<>();
		for (int i = 0; i < 6; i++)
			idle("idle-poll-" + i, () -> { Runnable r = q.poll(20, TimeUnit.MILLISECONDS); if (r != null) r.run(); });
		ScheduledExecutorService sched = Executors.newScheduledThreadPool(2, r -> {
			Thread t = new Thread(r, "idle-sched");
			t.setDaemon(true);
			return t;
		});
		sched.scheduleAtFixedRate(() -> { }, 20, 20, TimeUnit.MILLISECONDS);
		ThreadPoolExecutor pool = new ThreadPoolExecutor(4, 4, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), r -> {
			Thread t = new Thread(r, "idle-pool");
			t.setDaemon(true);
			return t;
		});
		pool.prestartAllCoreThreads();
		Object o = new Object();
		for (int i = 0; i < 2; i++)
			idle("idle-wait-" + i, () -> { synchronized (o) { o.wait(20); } });
		idle("idle-sleep", () -> Thread.sleep(20));
		CountDownLatch latch = new CountDownLatch(1);
		idle("idle-latch", () -> latch.await(20, TimeUnit.MILLISECONDS));
		CompletableFuture<Object> never = new CompletableFuture<>();
		idle("idle-future", () -> {
			try {
				never.get(20, TimeUnit.MILLISECONDS);
			} catch (TimeoutException e) {
			}
		});
		SynchronousQueue<Object> sq = new SynchronousQueue<>();
		idle("idle-handoff", () -> sq.poll(20, TimeUnit.MILLISECONDS));
	}

	/* the long waits so far, then "cum NANOTIME V..." with each site's sum
	 * of the shorter ones so far */
	static synchronized void cum() {
		for (String w; (w = waits.poll()) != null;)
			System.out.println(w);
		StringBuilder b = new StringBuilder("cum ").append(System.nanoTime());
		for (AtomicLong t : truth) b.append(' ').append(t.get());
		System.out.println(b);
		System.out.flush();
	}

	static void phase(int n, long ms) throws Exception {
		long end = System.nanoTime() + ms * 1000000L;
		Thread[] ts = new Thread[n];
		for (int i = 0; i < n; i++) {
			ts[i] = new Thread(() -> contend(end), "lk-" + i);
			ts[i].start();
		}
		while (counting && System.nanoTime() < end) {
			Thread.sleep(50);
			cum();
		}
		for (Thread t : ts)
			t.join();
	}

	public static void main(String[] a) throws Exception {
		int n = Integer.parseInt(a[0]);
		long ms = Long.parseLong(a[1]);
		idlePools();
		phase(n, 800);
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		counting = true;
		cum();
		phase(n, ms);
		counting = false;
		cum();
		long tot = 0;
		for (AtomicLong t : all) tot += t.get();
		for (int i = 0; i < SITES.length; i++)
			System.out.printf("truth %s %.2f%n", SITES[i], tot > 0 ? 100.0 * all[i].get() / tot : 0);
		System.out.println("done");
	}
}
