import java.util.Comparator;
import java.util.TreeMap;

/*
 * States AsyncGetCallTrace refuses as they are (issue 11): C2 code comparing
 * strings (the compare intrinsic moves the stack pointer for a while, as in
 * the H2 database's ValueVarchar.compareTypeSafe), behind a comparator that
 * is called, not inlined, from TreeMap; and an activation of a method that
 * stays in the interpreter while the method has compiled code (outer, run
 * once for all of SECONDS on one thread while another gets it compiled, once
 * that activation has begun; run with -XX:-UseOnStackReplacement). Runs
 * SECONDS, prints "ready PID".
 */
public class Walkable {
	static final class Key {
		final String s;

		Key(String s) { this.s = s; }
	}

	/* two classes at the call site keep it from being inlined whole */
	static final class ByString implements Comparator<Key> {
		public int compare(Key a, Key b) { return a.s.compareTo(b.s); }
	}

	static final class Reversed implements Comparator<Key> {
		public int compare(Key a, Key b) { return b.s.compareTo(a.s); }
	}

	static long sink;
	static volatile boolean stop;
	/* the long activation runs: only then may outer get compiled */
	static volatile boolean entered;

	static long inner(long i) {
		long h = i;

		for (int k = 0; k < 500; k++)
			h = (h * 31) ^ (h >>> 7) ^ k;
		return h;
	}

	static long outer(long n) {
		long s = 0;

		if (n == Long.MAX_VALUE)
			entered = true;
		for (long i = 0; i < n && !stop; i++)
			s += inner(i);
		return s;
	}

	static long compare(Comparator<Key> c, Key[] keys, int rounds) {
		TreeMap<Key, Integer> m = new TreeMap<>(c);
		long n = 0;

		for (int r = 0; r < rounds; r++) {
			for (int i = 0; i < keys.length; i++)
				m.merge(keys[i], 1, Integer::sum);
			n += m.size();
		}
		return n;
	}

	public static void main(String[] args) throws Exception {
		Stop.at(System.nanoTime() + Long.parseLong(args[0]) * 1000000000L);
		String prefix = "x".repeat(200);
		Key[] keys = new Key[512];

		for (int i = 0; i < keys.length; i++)
			keys[i] = new Key(prefix + (i * 7919 % 1000));
		Comparator<Key> a = new ByString(), b = new Reversed();
		Thread t = new Thread(() -> {
			while (Stop.on()) {
				sink += compare(a, keys, 4);
				sink += compare(b, keys, 4);
			}
		}, "walkable-compare");
		Thread interp = new Thread(() -> sink += outer(Long.MAX_VALUE),
					   "walkable-interp");
		Thread warm = new Thread(() -> {
			/* a late interp thread would enter outer compiled */
			while (!entered && Stop.on())
				Thread.onSpinWait();
			while (Stop.on())
				sink += outer(20);
		}, "walkable-warm");
		t.start();
		interp.start();
		warm.start();
		System.out.println("ready " + ProcessHandle.current().pid());
		System.out.flush();
		t.join();
		stop = true;
		interp.join();
		warm.join();
		System.out.println("done " + sink);
	}
}
