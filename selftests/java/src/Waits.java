// SPDX-License-Identifier: GPL-2.0
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Known waits on known Java paths, one kind per thread: waitSleep
 * (Thread.sleep 20 ms), waitIo (a socket read; a writer sends a byte every
 * 15 ms) and waitLock (a monitor another thread holds 25 ms at a time). Each
 * thread times its blocking calls with System.nanoTime; at the end the
 * program prints "truth Waits.waitX <pct>" (shares of the time the three
 * spent blocked), like selftests/progs/waits.c. A fourth thread, idler,
 * sleeps for the whole run in Waits.idle; the program prints "idler TID V0
 * V1": its voluntary context switches once it was asleep and at the end (a
 * profiler that woke it would move them), and "asleep NS" once it is
 * (System.nanoTime, CLOCK_MONOTONIC).
 *
 * Usage: Waits SECONDS
 */
public class Waits {
	static final Object lock = new Object();
	static volatile long end;
	static final long[] blocked = new long[3];

	static void waitSleep() throws InterruptedException {
		long t = System.nanoTime();
		Thread.sleep(20);
		add(0, System.nanoTime() - t);
	}

	static int waitIo(InputStream in) throws Exception {
		long t = System.nanoTime();
		int c = in.read();
		add(1, System.nanoTime() - t);
		return c;
	}

	static void waitLock() {
		long t = System.nanoTime();
		synchronized (lock) {
			add(2, System.nanoTime() - t);
		}
	}

	static synchronized void add(int i, long ns) {
		blocked[i] += ns;
	}

	static void idle() {
		try {
			Thread.sleep(Long.MAX_VALUE);
		} catch (InterruptedException e) {
		}
	}

	/* The tid of the thread whose name is name, or null. */
	static String tidOf(String name) throws Exception {
		java.io.File[] ts = new java.io.File("/proc/self/task").listFiles();
		for (java.io.File t : ts) {
			java.nio.file.Path c = t.toPath().resolve("comm");
			if (java.nio.file.Files.readString(c).trim().equals(name))
				return t.getName();
		}
		return null;
	}

	static String status(String tid, String field) throws Exception {
		for (String l : java.nio.file.Files.readAllLines(
				java.nio.file.Path.of("/proc/self/task/" + tid + "/status")))
			if (l.startsWith(field + ":"))
				return l.substring(field.length() + 1).trim();
		return "?";
	}

	static void nap(long ms) {
		try {
			Thread.sleep(ms);
		} catch (InterruptedException e) {
		}
	}

	public static void main(String[] args) throws Exception {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 3;
		ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		Socket client = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort());
		Socket server = ss.accept();
		InputStream in = client.getInputStream();
		OutputStream out = server.getOutputStream();
		Thread idler = new Thread(Waits::idle, "idler");
		idler.setDaemon(true);
		idler.start();
		String itid = null;
		/* asleep in the kernel, bounded: 10 s */
		for (int i = 0; i < 10000; i++) {
			if (itid == null)
				itid = tidOf("idler");
			if (itid != null && idler.getState() == Thread.State.TIMED_WAITING &&
			    status(itid, "State").startsWith("S"))
				break;
			nap(1);
		}
		String v0 = itid == null ? "?" : status(itid, "voluntary_ctxt_switches");
		System.out.println("asleep " + System.nanoTime());
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		end = System.nanoTime() + (long) (secs * 1e9);
		Thread[] t = {
			new Thread(() -> {
				try {
					while (System.nanoTime() < end)
						waitSleep();
				} catch (InterruptedException e) {
				}
			}, "sleeper"),
			new Thread(() -> {
				try {
					while (System.nanoTime() < end)
						waitIo(in);
				} catch (Exception e) {
				}
			}, "reader"),
			new Thread(() -> {
				try {
					while (System.nanoTime() < end + 100_000_000L) {
						nap(15);
						out.write(1);
						out.flush();
					}
				} catch (Exception e) {
				}
			}, "writer"),
			new Thread(() -> {
				while (System.nanoTime() < end) {
					nap(1);
					waitLock();
				}
			}, "locker"),
			new Thread(() -> {
				while (System.nanoTime() < end + 100_000_000L) {
					synchronized (lock) {
						nap(25);
					}
					nap(1);
				}
			}, "holder"),
		};
		for (Thread th : t)
			th.start();
		t[0].join();
		t[1].join();
		t[3].join();
		System.out.println("idler " + itid + " " + v0 + " " +
				   (itid == null ? "?" : status(itid, "voluntary_ctxt_switches")));
		long total = blocked[0] + blocked[1] + blocked[2];
		String[] names = { "waitSleep", "waitIo", "waitLock" };
		for (int i = 0; i < 3; i++)
			System.out.printf("truth Waits.%s %.2f%n", names[i], 100.0 * blocked[i] / total);
		System.out.flush();
		System.exit(0);
	}
}
