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
 */
public class H2Loop {
	public static void main(String[] args) throws Exception {
		long secs = args.length > 0 ? Long.parseLong(args[0]) : 30;
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
		PreparedStatement q = c.prepareStatement(
			"select name, sum(v) from t where id % ? = 0 group by name order by 2 desc limit 10");
		PreparedStatement u = c.prepareStatement("update t set v = v + 1 where id = ?");
		long end = System.nanoTime() + secs * 1000000000L, sum = 0;
		int k = 1;

		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		while (System.nanoTime() < end) {
			q.setInt(1, 1 + (k % 7));
			try (ResultSet r = q.executeQuery()) {
				while (r.next())
					sum += r.getString(1).length();
			}
			for (int j = 0; j < 50; j++) {
				u.setInt(1, (k * 31 + j) % 20000);
				u.executeUpdate();
			}
			if (++k == 300) {
				System.out.println("warm");
				System.out.flush();
			}
		}
		System.out.println("done " + sum);
	}
}
