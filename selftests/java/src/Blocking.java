// SPDX-License-Identifier: GPL-2.0
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Threads that wait in known Java methods, each thread in one method for
 * the whole run (its loop is inside the method, so that whatever the thread
 * does, its stack holds the method):
 *   sleep1     Blocking.sleep1       Thread.sleep(1)
 *   sleep20    Blocking.sleep20      Thread.sleep(20)
 *   parker     Blocking.parkLoop     LockSupport.parkNanos(5 ms)
 *   waiter     Blocking.monitorWait  Object.wait(10) on a monitor nobody
 *                                    notifies
 *   entrant    Blocking.monitorEnter a monitor the holder keeps 4 ms at a time
 *   holder     Blocking.holdLoop     (holds it, sleeping; not measured)
 *   taker      Blocking.handoffTake  SynchronousQueue.take
 *   putter     Blocking.handoffPut   SynchronousQueue.put (a hand-off every
 *                                    ~50 us of work: waits of microseconds)
 *   sockreader Blocking.readForever  a socket read that never returns,
 *                                    blocked before "ready"
 * Prints "ready PID" once every thread has started and the socket reader
 * is blocked, then "tid NAME TID" for each thread; runs SECONDS (default
 * 3600; until killed), then prints "done".
 *
 * Usage: Blocking [SECONDS]
 */
public class Blocking {
	static volatile boolean stop;
	static final Object waitOn = new Object();
	static final Object contended = new Object();
	static final SynchronousQueue<Integer> queue = new SynchronousQueue<>();
	static volatile long sink;

	static void sleep1() {
		try {
			while (!stop)
				Thread.sleep(1);
		} catch (InterruptedException e) {
		}
	}

	static void sleep20() {
		try {
			while (!stop)
				Thread.sleep(20);
		} catch (InterruptedException e) {
		}
	}

	static void parkLoop() {
		while (!stop)
			LockSupport.parkNanos(5_000_000L);
	}

	static void monitorWait() {
		try {
			synchronized (waitOn) {
				while (!stop)
					waitOn.wait(10);
			}
		} catch (InterruptedException e) {
		}
	}

	static void monitorEnter() {
		while (!stop) {
			synchronized (contended) {
				sink++;
			}
			LockSupport.parkNanos(500_000L);
		}
	}

	static void holdLoop() {
		try {
			while (!stop) {
				synchronized (contended) {
					Thread.sleep(4);
				}
				Thread.sleep(1);
			}
		} catch (InterruptedException e) {
		}
	}

	static void work(long nanos) {
		long end = System.nanoTime() + nanos, x = sink;
		while (System.nanoTime() < end)
			x = x * 31 + 7;
		sink = x;
	}

	static void handoffTake() {
		try {
			while (!stop)
				sink += queue.take();
		} catch (InterruptedException e) {
		}
	}

	static void handoffPut() {
		try {
			for (int i = 0; !stop; i++) {
				work(50_000);
				queue.put(i);
			}
		} catch (InterruptedException e) {
		}
	}

	static void readForever(InputStream in) {
		try {
			sink += in.read();
		} catch (Exception e) {
		}
	}

	static Thread start(String name, Runnable r) {
		Thread t = new Thread(r, name);
		t.setDaemon(true);
		t.start();
		return t;
	}

	public static void main(String[] args) throws Exception {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 3600;
		ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		Socket client = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort());
		Socket server = ss.accept();
		InputStream in = client.getInputStream();
		Thread[] ts = {
			start("sleep1", Blocking::sleep1),
			start("sleep20", Blocking::sleep20),
			start("parker", Blocking::parkLoop),
			start("waiter", Blocking::monitorWait),
			start("entrant", Blocking::monitorEnter),
			start("holder", Blocking::holdLoop),
			start("taker", Blocking::handoffTake),
			start("putter", Blocking::handoffPut),
			start("sockreader", () -> readForever(in)),
		};
		/* the socket reader blocked in the kernel, bounded: 10 s */
		Thread sr = ts[ts.length - 1];
		for (int i = 0; i < 1000 && sr.getState() != Thread.State.RUNNABLE; i++)
			Thread.sleep(10);
		for (int i = 0; i < 100; i++)
			Thread.sleep(10);
		System.out.println("ready " + ProcessHandle.current().pid());
		for (java.io.File t : new java.io.File("/proc/self/task").listFiles()) {
			String c = java.nio.file.Files.readString(t.toPath().resolve("comm")).trim();
			for (Thread th : ts)
				if (c.equals(th.getName()))
					System.out.println("tid " + c + " " + t.getName());
		}
		System.out.flush();
		Thread.sleep((long) (secs * 1000));
		stop = true;
		System.out.println("done");
		System.out.flush();
		server.close();
	}
}
