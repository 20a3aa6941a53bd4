// SPDX-License-Identifier: GPL-2.0
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A workload's own CPU-clock truth: the thread CPU time spent in each of its
 * phases, summed over its threads. print() writes "truth CLASS.PHASE <percent>"
 * for the whole run. With -Dtruth.every=MS a daemon thread also writes
 * "cum <System.nanoTime()> <ns of phase 0> <ns of phase 1> ..." every MS
 * milliseconds (and once more at the end), so that a test can take the truth
 * over exactly the window its recording covers: System.nanoTime is
 * CLOCK_MONOTONIC, the clock perfjava's samples carry. A whole-run truth
 * includes the JIT's warm-up, which a recording that starts later never sees.
 */
final class Truth {
	private final String cls;
	private final String[] phases;
	private final AtomicLongArray spent;
	private final boolean timeline;

	Truth(String cls, String... phases) {
		this.cls = cls;
		this.phases = phases;
		this.spent = new AtomicLongArray(phases.length);
		long every = Long.getLong("truth.every", 0);
		this.timeline = every > 0;
		if (!timeline)
			return;
		Thread t = new Thread(() -> {
			for (;;) {
				cum();
				try {
					Thread.sleep(every);
				} catch (InterruptedException e) {
					return;
				}
			}
		}, "truth-timeline");
		t.setDaemon(true);
		t.start();
	}

	void add(int phase, long ns) {
		spent.addAndGet(phase, ns);
	}

	private void cum() {
		StringBuilder b = new StringBuilder("cum ").append(System.nanoTime());
		for (int i = 0; i < phases.length; i++)
			b.append(' ').append(spent.get(i));
		System.out.println(b);
	}

	void print() {
		if (timeline)
			cum();
		long total = 0;
		for (int i = 0; i < phases.length; i++)
			total += spent.get(i);
		for (int i = 0; i < phases.length; i++)
			System.out.printf("truth %s.%s %.2f%n", cls, phases[i],
					total > 0 ? 100.0 * spent.get(i) / total : 0.0);
	}
}
