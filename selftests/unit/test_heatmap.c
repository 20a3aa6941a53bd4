// SPDX-License-Identifier: GPL-2.0
/*
 * `perfjava report --format heatmap` on profiles of known times: each cell
 * holds exactly what `--from`/`--to` of its bounds reports (samples on a
 * bound included), its pairs add up to it, the cells are chosen from the
 * recording's length and rate or by --column/--row, weights with --total,
 * filters, the command line the page prints, and the errors a user can
 * cause. The page itself is tested in Chromium (selftests/browser/).
 */
#include <stdlib.h>
#include <string.h>

#include "profile/io.h"
#include "report/report.h"
#include "tap.h"

static char data[300];
#include "report_util.h"

#define T0 5000000000ull /* the recording's start_ns */

/*
 * n samples from T0 every step ns, stack A before T0 + 1 s and B after,
 * tid 10 and 11 in turn, each weighing a period of 1 ms; two more on both
 * sides of T0 + 0.3 s, and one on it.
 */
static int make_times(const char *path, size_t n, uint64_t step)
{
	struct pj_writer *w = report_writer(path);
	uint32_t fa, fb, main, a, b;
	char start[32];

	if (!w)
		return -1;
	snprintf(start, sizeof(start), "%llu", T0);
	pj_writer_meta(w, "start_ns", start);
	fa = pj_writer_frame(w, PJ_FRAME_JIT, "App.phaseA", NULL, NULL, 0);
	fb = pj_writer_frame(w, PJ_FRAME_JIT, "App.phaseB", NULL, NULL, 0);
	main =
	    pj_writer_frame(w, PJ_FRAME_INTERPRETED, "App.main", NULL, NULL, 0);
	a = pj_writer_stack(w, (uint32_t[]){ fa, main }, 2);
	b = pj_writer_stack(w, (uint32_t[]){ fb, main }, 2);
	pj_writer_thread(w, 10, 10, "main");
	pj_writer_thread(w, 11, 10, "worker");
	for (size_t i = 0; i < n + 3; i++) {
		struct pj_sample s = { .period = 1000000 };

		s.time = i < n	      ? T0 + i * step
			 : i == n     ? T0 + 300000000 - 1
			 : i == n + 1 ? T0 + 300000000
				      : T0 + 300000000 + 1;
		s.stack = s.time < T0 + 1000000000 ? a : b;
		s.tid = 10 + (uint32_t)(i % 2);
		pj_writer_sample(w, &s);
	}
	return pj_writer_close(w);
}

/* The page's text, whole; NULL when it cannot be read. */
static char *page_text(void)
{
	static char *buf;
	FILE *f = fopen(out, "r");
	long n;

	free(buf);
	buf = NULL;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)n + 1))) {
		if (fread(buf, 1, (size_t)n, f) != (size_t)n)
			n = 0;
		buf[n] = 0;
	}
	fclose(f);
	return buf;
}

/* The number after "key: " in the page's H, or -1. */
static double field(const char *page, const char *key)
{
	const char *h = page ? strstr(page, "const H = {") : NULL;
	char k[64];

	snprintf(k, sizeof(k), "\n%s: ", key);
	h = h ? strstr(h, k) : NULL;
	return h ? strtod(h + strlen(k), NULL) : -1;
}

/* Reads the numbers of the H array key (report/heatmap.c's put_var) into
 * v, at most max; their count, or -1. */
static long numbers(const char *page, const char *key, double *v, long max)
{
	const char *h = page ? strstr(page, "const H = {") : NULL;
	char k[64];
	long n = 0;
	double x = 0, mul = 1;

	snprintf(k, sizeof(k), "\n%s: [", key);
	h = h ? strstr(h, k) : NULL;
	if (!h)
		return -1;
	for (h += strlen(k); *h && *h != ']'; h++) {
		int d;

		if (*h != '"')
			continue;
		for (h++; *h && *h != '"'; h++) {
			d = *h - ' ' - (*h > '"') - (*h > '<') - (*h > '\\');
			if (d < 46) {
				if (n < max)
					v[n] = x + d * mul;
				n++;
				x = 0;
				mul = 1;
			} else {
				x += (d - 46) * mul;
				mul *= 46;
			}
		}
	}
	return n;
}

/* The samples (or weights) of a collapsed report with args. */
static double collapsed_total(const char *a1, const char *a2, const char *a3,
			      const char *a4)
{
	double t = 0;
	char line[4096];
	FILE *f;

	if (report("-i", data, "--format", "collapsed", "-o", out, a1, a2, a3,
		   a4, (char *)NULL))
		return -1;
	f = fopen(out, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' ');

		t += sp ? strtod(sp + 1, NULL) : 0;
	}
	if (f)
		fclose(f);
	return t;
}

/* ns as report's --from/--to take it, as the page writes it: 0.3, 12 */
static void secs(char *buf, size_t len, uint64_t ns)
{
	int n = snprintf(buf, len, "%llu.%09llu", ns / 1000000000ull,
			 ns % 1000000000ull);

	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = 0;
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = 0;
}

#define MAXC 4096

static void test_cells(void)
{
	static double sums[2 * MAXC], cells[64 * MAXC];
	double row_ns, nc, tn, pairs, total = 0;
	long ns, ncv, bad = 0, k = 0;
	char *page;

	ok(report("-i", data, "--format", "heatmap", "--column", "1", "--row",
		  "0.1", "-o", out, (char *)NULL) == 0 &&
	       (page = page_text()),
	   "--format heatmap --column 1 --row 0.1 writes a page");
	page = page_text();
	row_ns = field(page, "rowNs");
	nc = field(page, "ncells");
	ok(row_ns == 1e8 && field(page, "rows") == 10 &&
	       field(page, "first") == 0 && nc == 20,
	   "cells of 100 ms, 10 a column, 2 columns (%g %g)", row_ns, nc);
	ns = numbers(page, "sums", sums, 2 * MAXC);
	ok(ns == 2 * (long)nc, "two sums a cell (%ld)", ns);
	for (long c = 0; c < nc && ns == 2 * (long)nc; c++) {
		char from[32], to[32];
		double want;

		secs(from, sizeof(from), (uint64_t)(c * row_ns));
		secs(to, sizeof(to), (uint64_t)((c + 1) * row_ns));
		want = collapsed_total("--from", from, "--to", to);
		if (want != sums[2 * c] || sums[2 * c] != sums[2 * c + 1]) {
			printf("# cell %ld (--from %s --to %s): %g samples, "
			       "%g counted, report says %g\n",
			       c, from, to, sums[2 * c], sums[2 * c + 1], want);
			bad++;
		}
		total += sums[2 * c];
	}
	ok(!bad && total == 2003,
	   "each cell holds what --from/--to of its bounds reports, "
	   "the samples on 0.3 s too (%g in all)",
	   total);
	ok(sums[2 * 2] == 101 && sums[2 * 3] == 102,
	   "0.3 s - 1 ns in the cell before, 0.3 s and after in the one "
	   "from 0.3 s (%g, %g)",
	   sums[4], sums[6]);
	/* The pairs: a count, then (node step * 2 + flag, [count]) each. */
	ncv = numbers(page, "cells", cells, 64 * MAXC);
	pairs = field(page, "pairs");
	tn = 0;
	for (const char *p = strstr(page, "nodes: ["); p && *p != ']'; p++)
		tn += *p == ',';
	tn = (tn + 1) / 3;
	for (long c = 0; c < nc && ncv > 0 && ncv <= 64 * MAXC; c++) {
		long np = (long)cells[k++];
		double sum = 0, node = 0;

		for (long j = 0; j < np && k < ncv; j++) {
			double x = cells[k++];

			node += (double)((long)x / 2);
			sum += (long)x % 2 ? 2 + cells[k++] : 1;
			bad += node >= tn;
		}
		bad += sum != sums[2 * c + 1];
	}
	ok(ncv > 0 && !bad && k == ncv && pairs == 20,
	   "each cell's pairs name nodes of the tree and add up to its "
	   "count (%g pairs, %g nodes)",
	   pairs, tn);
}

/* rowNs and rows of the page of args. */
static int grid(double *row_ns, double *rows, const char *a1, const char *a2,
		const char *a3, const char *a4)
{
	int rc = report("-i", data, "--format", "heatmap", "-o", out, a1, a2,
			a3, a4, (char *)NULL);
	char *page = page_text();

	*row_ns = field(page, "rowNs");
	*rows = field(page, "rows");
	return rc;
}

static void test_sizes(void)
{
	double row, rows;

	grid(&row, &rows, NULL, NULL, NULL, NULL);
	ok(row == 5e6 && rows == 10,
	   "2 s at 1 kHz: cells of 5 ms, columns of 50 ms (%g ns)", row);
	grid(&row, &rows, "--column", "0.5", NULL, NULL);
	ok(row == 5e7 && rows == 10, "--column 0.5: 10 cells of 50 ms");
	grid(&row, &rows, "--column", "1", "--row", "0.25");
	ok(row == 2.5e8 && rows == 4, "--column 1 --row 0.25: 4 cells");
	grid(&row, &rows, "--row", "0.2", NULL, NULL);
	ok(row == 2e8 && rows == 10, "--row 0.2: columns of 2 s");
	ok(grid(&row, &rows, "--column", "1", "--row", "0.3") == 1 &&
	       strstr(slurp(errf), "not a whole number of --row") &&
	       !strchr(strchr(slurp(errf), '\n') + 1, '\n'),
	   "--column 1 --row 0.3: one line, exit 1");
	ok(grid(&row, &rows, "--row", "0", NULL, NULL) == 2 &&
	       strstr(slurp(errf), "--row wants a time in seconds"),
	   "--row 0: exit 2");
	ok(grid(&row, &rows, "--column", "0.00001", NULL, NULL) == 1 &&
	       strstr(slurp(errf), "columns of 10 cells (at most 20000") &&
	       !strchr(strchr(slurp(errf), '\n') + 1, '\n'),
	   "200000 columns: one line that says what to do, exit 1");
	ok(grid(&row, &rows, "--diff", data, NULL, NULL) == 2,
	   "--diff is refused");
	ok(grid(&row, &rows, "--minwidth", "1", NULL, NULL) == 2,
	   "--minwidth is refused");
}

static void test_options(void)
{
	static double sums[2 * MAXC];
	long n;
	double t = 0, want;
	char *page, expect[600];

	report("-i", data, "--format", "heatmap", "-o", out, "--total",
	       (char *)NULL);
	page = page_text();
	n = numbers(page, "sums", sums, 2 * MAXC);
	for (long c = 0; c + 1 < n; c += 2)
		t += sums[c + 1];
	ok(page && strstr(page, "\nweighted: true,") && t == 2003e6,
	   "--total: cells weigh their periods (%g ns)", t);
	report("-i", data, "--format", "heatmap", "-o", out, "--tid", "10",
	       "--include", "it's|App", "--simple", "--from", "0.5", "--to",
	       "1.5", (char *)NULL);
	page = page_text();
	snprintf(expect, sizeof(expect),
		 "\ncmd: \"perfjava report --input %s --tid 10 --include "
		 "'it'\\\\''s|App' --simple\",\nrange: \" --from 0.5 --to "
		 "1.5\",",
		 data);
	ok(page && strstr(page, expect),
	   "the page's command: the filters and names as given, quoted, "
	   "and the --from/--to of the whole map apart");
	n = numbers(page, "sums", sums, 2 * MAXC);
	t = 0;
	for (long c = 0; c + 1 < n; c += 2)
		t += sums[c];
	want = collapsed_total("--tid", "10", "--from", "0.5");
	want -= collapsed_total("--tid", "10", "--from", "1.5");
	ok(t == want && t > 0 && field(page, "first") == 10 * 5,
	   "--tid, --from/--to: the cells hold their samples (%g of %g), "
	   "from the column of 0.5 s",
	   t, want);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (report_dir_make())
		return 1;
	snprintf(data, sizeof(data), "%s/times.data", dir);
	if (ok(make_times(data, 2000, 1000000) == 0, "write the profile")) {
		test_cells();
		test_sizes();
		test_options();
	}
	report_dir_remove();
	return tap_done();
}
