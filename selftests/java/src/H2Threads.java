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
import java.util.concurrent.atomic.AtomicLong;

/*
 * The H2 database (Debian's /usr/share/java/h2.jar, or -Dh2.jar=) used by
 * THREADS clients at once, each with its own connection to one in-memory
 * database: grouped selects, single-row updates and inserts of new rows, so
 * that the clients allocate, contend on H2's own locks and wait for each
 * other as a real application's threads do (test_jfr_consumers.sh).
 * Usage: H2Threads THREADS SECONDS [virtual]: "virtual" runs the clients
 * as virtual threads (JDK 21+, by reflection: built for release 17).
 * Prints "ready PID" once the table is loaded, "done N" at the end.
 */
public class H2Threads {
	static final AtomicLong ops = new AtomicLong();

	static void client(Driver d, int id, long end) {
		try (Connection c = d.connect("jdbc:h2:mem:t;DB_CLOSE_DELAY=-1", new Properties())) {
			PreparedStatement q = c.prepareStatement(
				"select name, sum(v) from t where id % ? = 0 group by name order by 2 desc limit 10");
			PreparedStatement u = c.prepareStatement("update t set v = v + 1 where id = ?");
			PreparedStatement ins = c.prepareStatement("insert into t values(?,?,?)");
			int k = 1, next = 1000000 * (id + 1);
			while (System.nanoTime() < end) {
				q.setInt(1, 3 + (k % 7));
				try (ResultSet r = q.executeQuery()) {
					while (r.next())
						ops.addAndGet(r.getString(1).length());
				}
				for (int j = 0; j < 20; j++) {
					u.setInt(1, (k * 31 + j) % 5000);
					u.executeUpdate();
				}
				ins.setInt(1, next);
				ins.setString(2, "row" + next++);
				ins.setDouble(3, k);
				ins.executeUpdate();
				k++;
			}
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
	}

	public static void main(String[] args) throws Exception {
		int threads = Integer.parseInt(args[0]);
		long secs = Long.parseLong(args[1]);
		boolean virtual = args.length > 2 && args[2].equals("virtual");
		URL jar = new File(System.getProperty("h2.jar", "/usr/share/java/h2.jar")).toURI().toURL();
		ClassLoader h2 = new URLClassLoader(new URL[] { jar }, H2Threads.class.getClassLoader());
		Driver d = (Driver) h2.loadClass("org.h2.Driver").getDeclaredConstructor().newInstance();
		Connection c = d.connect("jdbc:h2:mem:t;DB_CLOSE_DELAY=-1", new Properties());
		Statement s = c.createStatement();
		s.execute("create table t(id int primary key, name varchar(64), v double)");
		PreparedStatement ins = c.prepareStatement("insert into t values(?,?,?)");
		for (int i = 0; i < 5000; i++) {
			ins.setInt(1, i);
			ins.setString(2, "name" + (i % 500));
			ins.setDouble(3, i * 1.5);
			ins.executeUpdate();
		}
		long end = System.nanoTime() + secs * 1000000000L;
		Thread[] t = new Thread[threads];
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		for (int i = 0; i < threads; i++) {
			final int id = i;
			Runnable r = () -> client(d, id, end);
			if (virtual) {
				Class<?> bc = Class.forName("java.lang.Thread$Builder");
				Object b = Thread.class.getMethod("ofVirtual").invoke(null);
				b = bc.getMethod("name", String.class).invoke(b, "h2-client-" + i);
				t[i] = (Thread) bc.getMethod("start", Runnable.class).invoke(b, r);
			} else {
				t[i] = new Thread(r, "h2-client-" + i);
				t[i].start();
			}
		}
		for (Thread x : t)
			x.join();
		System.out.println("done " + ops.get());
	}
}
