// SPDX-License-Identifier: GPL-2.0
/*
 * The heatmap (--format heatmap): one self-contained page
 * (report/pages/heatmap.js) with time across in columns and, down each
 * column, its cells in time order (as FlameScope draws them), each coloured
 * by what the flame graph counts there (samples, or their weight with
 * --total: time off CPU, bytes); selecting a range draws that range's flame
 * graph with the flame page's code and prints the report command of the
 * same --from/--to.
 *
 * The page holds the call tree once (calltree_write_js) and, per cell, the
 * nodes its samples' stacks end at with their counts, as varints in
 * strings: about 2 bytes a pair, 6 MB beside a 4.8 MB tree for 10 minutes
 * of 8 threads at 1 kHz over 100000 unique stacks (test_report_big).
 * A sample falls in the cell whose --from/--to would report it: its time
 * is compared with the cells' bounds as report_sample_selected() compares
 * it with --from and --to (a sample before time 0 goes in the first cell).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/heatmap.h"
#include "report/html.h"
#include "report/wallview.h"

#define DEFAULT_ROWS 10 /* cells in a column */
#define MAX_ROWS 1000
#define MAX_COLUMNS 20000 /* a canvas is at most 32767 px wide */
#define MAX_CELLS 2000000
#define AUTO_COLUMNS 600 /* at most, when the cells are chosen */
#define AUTO_PER_CELL 4 /* samples per cell on average, when chosen */
#define MAX_CELL_NS 3600000000000ull /* the longest cell chosen: 1 hour */
#define JS_MAX ((1ull << 53) - 1) /* JavaScript's largest exact integer */

struct grid {
	uint64_t row_ns; /* a cell's time */
	uint32_t rows; /* cells per column */
	uint64_t first; /* the first cell shown: its column's first */
	uint64_t ncells; /* whole columns, from the first to the last sample */
};

/* The start of cell k in --from/--to seconds: the same double as the
 * decimal the page prints parses to, k * row_ns being exact. */
static double cell_start(uint64_t k, uint64_t row_ns)
{
	return (double)k * (double)row_ns / 1e9;
}

/* The cell of time t (seconds from the start), as --from/--to choose. */
static uint64_t cell_of(double t, uint64_t row_ns)
{
	double x = t * 1e9 / (double)row_ns;
	uint64_t k;

	if (!(x > 0)) /* before the start, or NaN */
		return 0;
	k = x < 0x1p52 ? (uint64_t)x : 1ull << 52;
	for (int i = 0; i < 4 && k && t < cell_start(k, row_ns); i++)
		k--;
	for (int i = 0; i < 4 && t >= cell_start(k + 1, row_ns); i++)
		k++;
	return k;
}

/* The smallest round cell (1, 2, 5 times a power of ten, from 1 ms) with
 * AUTO_PER_CELL samples on average and at most AUTO_COLUMNS columns. */
static uint64_t auto_row_ns(double span, uint64_t nsamples)
{
	static const uint64_t steps[] = { 1, 2, 5 };
	uint64_t row = 1000000;

	if (span < 1e-3)
		span = 1e-3;
	for (uint64_t mag = 1000000; mag <= MAX_CELL_NS; mag *= 10) {
		for (size_t i = 0; i < 3 && steps[i] * mag <= MAX_CELL_NS;
		     i++) {
			double s = (double)(steps[i] * mag) / 1e9;

			row = steps[i] * mag;
			if ((double)nsamples * s / span >= AUTO_PER_CELL &&
			    span / (s * DEFAULT_ROWS) <= AUTO_COLUMNS)
				return row;
		}
	}
	return row;
}

/* The cells of --column and --row: -1 after a message when they do not
 * fit together. */
static int given_cells(const struct report_opts *o, struct grid *g)
{
	double row = o->row ? o->row : o->column / DEFAULT_ROWS;
	double rows = o->column && o->row ? o->column / o->row : DEFAULT_ROWS;

	if (rows < 0.999 || rows > MAX_ROWS + 0.001 ||
	    fabs(rows - round(rows)) > 1e-6 * rows) {
		fprintf(stderr,
			"perfjava report: --column %g is not a whole number of "
			"--row %g (at most %d rows); give --column alone for "
			"%d rows of a tenth of it\n",
			o->column, o->row, MAX_ROWS, DEFAULT_ROWS);
		return -1;
	}
	g->rows = (uint32_t)round(rows);
	g->row_ns = (uint64_t)llround(row * 1e9);
	if (!g->row_ns)
		g->row_ns = 1;
	return 0;
}

/* The value a sample adds to its cell: 1, or its weight with --total
 * (1 when no sample of the report has one, as report.c's build()). */
static uint64_t sample_value(const struct report *r, const struct pj_sample *s,
			     bool weights)
{
	return r->o->total && weights ? s->period : 1;
}

/* The grid of r's selected samples: -1 after a message when too fine. */
static int make_grid(const struct report *r, struct grid *g, bool *weights)
{
	const struct pj_profile *p = r->p;
	double lo = INFINITY, hi = -INFINITY;
	uint64_t klo = UINT64_MAX, khi = 0, ncols;

	*weights = false;
	if (p->nsamples >= UINT32_MAX) { /* by_cell() counts in 32 bits */
		fprintf(stderr,
			"perfjava report: %zu samples are too many for a "
			"heatmap; report a part of the files\n",
			p->nsamples);
		return -1;
	}
	for (size_t i = 0; i < p->nsamples; i++) {
		double t;

		if (r->sample_stack[i] == UINT32_MAX)
			continue;
		t = report_secs(r, p->samples[i].time);
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
		*weights |= p->samples[i].period != 0;
	}
	if (r->o->column || r->o->row) {
		if (given_cells(r->o, g))
			return -1;
	} else {
		g->rows = DEFAULT_ROWS;
		g->row_ns = r->total_samples
				? auto_row_ns(hi - lo, r->total_samples)
				: 100000000; /* no sample: 1 s */
	}
	if (r->total_samples) {
		klo = cell_of(lo, g->row_ns) / g->rows;
		khi = cell_of(hi, g->row_ns) / g->rows;
	} else {
		klo = khi = 0;
	}
	ncols = khi - klo + 1;
	if (ncols > MAX_COLUMNS || ncols * g->rows > MAX_CELLS) {
		fprintf(stderr,
			"perfjava report: the heatmap would have %llu columns "
			"of %u cells (at most %d columns, %d cells); give a "
			"longer --column, or a part with --from/--to\n",
			(unsigned long long)ncols, g->rows, MAX_COLUMNS,
			MAX_CELLS);
		return -1;
	}
	g->first = klo * g->rows;
	g->ncells = ncols * g->rows;
	return 0;
}

int report_heatmap_check(const struct report *r)
{
	struct grid g;
	bool weights;

	return r->sample_stack ? make_grid(r, &g, &weights) : -1;
}

/*
 * A number of the page's cells in base 46: digits are the 92 characters of
 * ' '..'~' that need no escape in a JavaScript string inside <script> (not
 * '"', '\\', '<'), the first 46 ending a number, the other 46 one more
 * digit of it, lowest first (heatmap.js's decode).
 */
#define VAR_BASE 46

static void put_var(FILE *out, uint64_t v)
{
	static const char digit[] =
	    " !#$%&'()*+,-./0123456789:;=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`"
	    "abcdefghijklmnopqrstuvwxyz{|}~";

	_Static_assert(sizeof(digit) == 2 * VAR_BASE + 1, "92 digits");

	if (v > JS_MAX)
		v = JS_MAX;
	while (v >= VAR_BASE) {
		putc(digit[VAR_BASE + v % VAR_BASE], out);
		v /= VAR_BASE;
	}
	putc(digit[v], out);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

struct heat {
	const struct report *r;
	const struct calltree *ct;
	uint32_t *pos; /* node -> index in the page's P.nodes */
	struct grid g;
	bool weights;
};

/* The selected samples by cell: at[start[c]..start[c + 1]) are cell c's. */
static int by_cell(const struct heat *h, uint32_t **start, uint32_t **at)
{
	const struct pj_profile *p = h->r->p;
	uint32_t *s = calloc(h->g.ncells + 1, sizeof(*s));
	uint32_t *a = malloc((h->r->total_samples + 1) * sizeof(*a));

	*start = s;
	*at = a;
	if (!s || !a)
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < p->nsamples; i++) {
			uint64_t c;

			if (h->r->sample_stack[i] == UINT32_MAX)
				continue;
			c = cell_of(report_secs(h->r, p->samples[i].time),
				    h->g.row_ns) -
			    h->g.first;
			if (c >= h->g.ncells) /* make_grid's cells hold all */
				c = h->g.ncells - 1;
			if (pass)
				a[s[c]++] = (uint32_t)i;
			else
				s[c + 1]++;
		}
		if (pass) /* s[c] ended at cell c + 1's start */
			memmove(s + 1, s, h->g.ncells * sizeof(*s));
		else
			for (uint64_t c = 0; c < h->g.ncells; c++)
				s[c + 1] += s[c];
		s[0] = 0;
	}
	return 0;
}

/*
 * H.cells, strings of 64 cells each: per cell its pair count, then its
 * (node, count) pairs in the order of the nodes, each the node's step from
 * the last pair's times 2, plus 1 when a count other than 1 follows (less
 * 2); H.sums: per cell its samples and its count.
 */
static int write_cells(FILE *out, const struct heat *h, uint64_t *npairs)
{
	const struct pj_profile *p = h->r->p;
	uint32_t n = h->ct->n, *start = NULL, *at = NULL;
	uint32_t *touched = malloc((n ? n : 1) * sizeof(*touched));
	uint64_t *acc = calloc(n ? n : 1, sizeof(*acc));
	uint64_t *sums = malloc(h->g.ncells * sizeof(*sums));
	int ret = -1;

	if (by_cell(h, &start, &at) || !acc || !touched || !sums)
		goto out;
	*npairs = 0;
	fputs("cells: [\"", out);
	for (uint64_t c = 0; c < h->g.ncells; c++) {
		uint32_t nt = 0, prev = 0;

		sums[c] = 0;
		for (uint32_t j = start[c]; j < start[c + 1]; j++) {
			const struct pj_sample *s = &p->samples[at[j]];
			uint32_t st = h->r->sample_stack[at[j]];
			uint32_t node = h->pos[h->ct->end[st]];
			uint64_t v = sample_value(h->r, s, h->weights);

			if (node == UINT32_MAX || (!acc[node] && !v))
				continue; /* weighs nothing: not drawn */
			if (!acc[node])
				touched[nt++] = node;
			acc[node] = acc[node] > UINT64_MAX - v ? UINT64_MAX
							       : acc[node] + v;
		}
		qsort(touched, nt, sizeof(*touched), cmp_u32);
		put_var(out, nt);
		for (uint32_t k = 0; k < nt; k++) {
			uint64_t v = acc[touched[k]];

			put_var(out,
				2 * (uint64_t)(touched[k] - prev) + (v != 1));
			if (v != 1)
				put_var(out, v - 2);
			sums[c] = sums[c] > JS_MAX - v ? JS_MAX : sums[c] + v;
			prev = touched[k];
			acc[touched[k]] = 0;
		}
		*npairs += nt;
		if (c % 64 == 63 && c + 1 < h->g.ncells)
			fputs("\",\n\"", out);
	}
	fputs("\"],\nsums: [\"", out);
	for (uint64_t c = 0; c < h->g.ncells; c++) {
		put_var(out, start[c + 1] - start[c]);
		put_var(out, sums[c]);
		if (c % 1024 == 1023 && c + 1 < h->g.ncells)
			fputs("\",\n\"", out);
	}
	fputs("\"],\n", out);
	ret = 0;
out:
	free(start);
	free(at);
	free(acc);
	free(touched);
	free(sums);
	return ret;
}

/* " opt V": v in the fewest digits that read back as v. */
static void put_secs(char *buf, size_t len, const char *opt, double v)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, " %s %.*g", opt, prec, v);
		if (strtod(buf + strlen(opt) + 2, NULL) == v)
			break;
	}
}

static int write_data(FILE *out, const void *ctx)
{
	const struct heat *h = ctx;
	const struct report_opts *o = h->r->o;
	static const char report[] = "perfjava report";
	char *cmd = malloc(sizeof(report) + o->arglen);
	char from[64], to[64], range[128];
	uint64_t npairs = 0;

	if (!cmd || calltree_write_js(out, h->ct, NULL, false, 0, h->pos)) {
		free(cmd);
		return -1;
	}
	memcpy(cmd, report, sizeof(report));
	if (o->argline)
		memcpy(cmd + sizeof(report) - 1, o->argline, o->arglen + 1);
	fprintf(out,
		"const H = {\nrowNs: %llu,\nrows: %u,\nfirst: %llu,\n"
		"ncells: %llu,\nweighted: %s,\ncmd: ",
		(unsigned long long)h->g.row_ns, h->g.rows,
		(unsigned long long)h->g.first, (unsigned long long)h->g.ncells,
		o->total && h->weights ? "true" : "false");
	json_string(out, cmd);
	free(cmd);
	/* The whole heatmap's range: the --from/--to it was made with. */
	put_secs(from, sizeof(from), "--from", o->from);
	put_secs(to, sizeof(to), "--to", o->to);
	snprintf(range, sizeof(range), "%s%s", o->from > 0 ? from : "",
		 o->to >= 0 ? to : "");
	fputs(",\nrange: ", out);
	json_string(out, range);
	fputs(",\n", out);
	if (write_cells(out, h, &npairs))
		return -1;
	fprintf(out, "pairs: %llu\n};\n", (unsigned long long)npairs);
	return 0;
}

int report_heatmap(FILE *out, const struct report *r)
{
	struct ct_titles t;
	struct calltree ct;
	struct heat h = { .r = r, .ct = &ct };
	char title[512];
	int ret = -1;

	ct_titles_init(&t);
	if (!r->sample_stack || make_grid(r, &h.g, &h.weights))
		goto out_titles;
	if (calltree_build(&ct, r, &t))
		goto out;
	h.pos = malloc((ct.n ? ct.n : 1) * sizeof(*h.pos));
	if (!h.pos)
		goto out;
	if (r->o->title)
		snprintf(title, sizeof(title), "%s", r->o->title);
	else
		report_title(r, "Heatmap", title, sizeof(title));
	ret = html_page_write_data(out, &heatmap_page, title, write_data, &h);
out:
	free(h.pos);
	calltree_free(&ct);
out_titles:
	ct_titles_free(&t);
	return ret;
}
