// SPDX-License-Identifier: GPL-2.0
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

/*
 * SQL in a loop on the H2 database (Debian's /usr/share/java/h2.jar, or the
 * jar named by -Dh2.jar=, loaded here): a real application for the walk's
 * benchmarks. Grouped, sorted selects over a varchar column and
 * single-row updates, in memory. Runs SECONDS, prints "ready PID" once the
 * table is loaded, and "warm" after 300 rounds of the loop (its rate is
 * steady from about 200 on, JDK 17: the code is compiled by then).
 *
 * Usage: H2Loop SECONDS [THREADS [ticks]]: THREADS threads (default 1),
 * each with its own connection to the one database, run the loop at once
 * (their updates and H2's own locks contend: -e lock's benchmark; with
 * -Dh2.hot=N the updates go to the first N rows only, whose row locks
 * contend too; with -Dh2.shared=true all threads share one connection,
 * whose session runs one command at a time); with
 * "ticks", "tick NANOTIME ROUNDS BYTES" every 100 ms (the rounds of all
 * threads so far, System.nanoTime, and the bytes they allocated so far by
 * the JVM's own counters), so that a benchmark takes the rate in a window.
 */
public class H2Loop {
	/* the rows updated: -Dh2.hot=N, the first N (their locks contend) */
	static final int HOT = Math.max(1, Math.min(20000, Integer.getInteger("h2.hot", 20000)));
	static final java.util.concurrent.atomic.AtomicLong rounds = new java.util.concurrent.atomic.AtomicLong();
	static volatile long sink;

	/* with -Dh2.shared=true, every thread's statements on one connection
	 * (H2 runs one command of a session at a time: they contend) */
	static final boolean SHARED = Boolean.getBoolean("h2.shared");
	static Connection shared;

	/* one thread's loop on its own connection (or the shared one) until
	 * end */
	static void loop(Driver d, long end, int seed) {
		try (Connection own = SHARED ? null : d.connect("jdbc:h2:mem:t;DB_CLOSE_DELAY=-1", new Properties())) {
			Connection c = SHARED ? shared : own;
			PreparedStatement q = c.prepareStatement(
				"select name, sum(v) from t where id % ? = 0 group by name order by 2 desc limit 10");
			PreparedStatement u = c.prepareStatement("update t set v = v + 1 where id = ?");
			long sum = 0;
			int k = 1 + seed;

			while (System.nanoTime() < end) {
				q.setInt(1, 1 + (k % 7));
				try (ResultSet r = q.executeQuery()) {
					while (r.next())
						sum += r.getString(1).length();
				}
				for (int j = 0; j < 50; j++) {
					u.setInt(1, (k * 31 + j) % HOT);
					u.executeUpdate();
				}
				if (rounds.incrementAndGet() == 300) {
					System.out.println("warm");
					System.out.flush();
				}
				k++;
			}
			sink += sum;
		} catch (Exception e) {
			e.printStackTrace();
		}
	}

	public static void main(String[] args) throws Exception {
		long secs = args.length > 0 ? Long.parseLong(args[0]) : 30;
		int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
		boolean ticks = args.length > 2 && args[2].equals("ticks");
		URL jar = new File(System.getProperty("h2.jar", "/usr/share/java/h2.jar")).toURI().toURL();
		ClassLoader h2 = new URLClassLoader(new URL[] { jar }, H2Loop.class.getClassLoader());
		Driver d = (Driver) h2.loadClass("org.h2.Driver").getDeclaredConstructor().newInstance();
		Connection c = d.connect("jdbc:h2:mem:t;DB_CLOSE_DELAY=-1", new Properties());
		Statement s = c.createStatement();
		s.execute("create table t(id int primary key, name varchar(64), v double)");
		PreparedStatement ins = c.prepareStatement("insert into t values(?,?,?)");
		for (int i = 0; i < 20000; i++) {
			ins.setInt(1, i);
			ins.setString(2, "name" + i);
			ins.setDouble(3, i * 1.5);
			ins.executeUpdate();
		}
		long end = System.nanoTime() + secs * 1000000000L;
		shared = c;

		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		Thread[] ts = new Thread[threads];
		for (int i = 0; i < threads; i++) {
			int seed = i * 7919;
			ts[i] = new Thread(() -> loop(d, end, seed), "h2-" + i);
			ts[i].start();
		}
		com.sun.management.ThreadMXBean mx =
			(com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
		long[] ids = new long[threads];
		for (int i = 0; i < threads; i++)
			ids[i] = ts[i].getId();
		while (ticks && System.nanoTime() < end) {
			Thread.sleep(100);
			long bytes = 0;
			for (long b : mx.getThreadAllocatedBytes(ids))
				bytes += Math.max(b, 0);
			System.out.println("tick " + System.nanoTime() + " " + rounds.get() + " " + bytes);
			System.out.flush();
		}
		for (Thread t : ts)
			t.join();
		System.out.println("done " + sink);
	}
}
