// SPDX-License-Identifier: GPL-2.0
/*
 * `perfjava report`: parses options, loads the profile, selects samples and
 * folds them into weighted unique stacks (struct report), then hands that to
 * the chosen output format. See report/report.h for how to add formats and filters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/outfile.h"
#include "lib/u64map.h"
#include "report/filter.h"
#include "report/heatmap.h"
#include "report/multi.h"
#include "report/report.h"
#include "report/stackfold.h"

static const struct {
	const char *name;
	int (*write)(FILE *out, const struct report *r);
	bool diff; /* works with --diff */
} formats[] = {
	{ "text", report_text, true },
	{ "collapsed", report_collapsed, false },
	{ "flame", report_flame, true },
	{ "tree", report_tree, false },
	{ "pprof", report_pprof, false },
	{ "script", report_script, false },
	{ "meta", report_meta, false },
	{ "jfr", report_jfr, false },
	{ "heatmap", report_heatmap, false },
};

/* Time 0 of --from/--to: when recording started, else the first sample. */
static uint64_t start_time(const struct pj_profile *p)
{
	uint64_t t = pj_profile_start_ns(p);

	if (!t) {
		t = UINT64_MAX;
		for (size_t i = 0; i < p->nsamples; i++)
			if (p->samples[i].time < t)
				t = p->samples[i].time;
		if (t == UINT64_MAX)
			t = 0;
	}
	return t;
}

static const struct pj_event_desc *find_event(const struct pj_profile *p,
					      const char *name)
{
	const struct pj_event_desc *best = NULL;

	for (uint32_t i = 0; i < p->nevents; i++) {
		const struct pj_event_desc *e = &p->events[i];

		if (name ? !strcmp(e->name, name)
			 : (!best || e->index < best->index))
			best = e;
		if (name && best)
			break;
	}
	/* cpu: perfjava's CPU clock, as a JFR file of another's names it;
	 * a JFR event type by the profile event it became (profile/jfr_event.c) */
	if (!best && name && !strcmp(name, "cpu"))
		best = find_event(p, "cpu-clock")
			   ?: find_event(p, "task-clock");
	if (!best && name && strncmp(name, "event.", 6)) {
		char key[256];
		const char *to;

		snprintf(key, sizeof(key), "event.%s", name);
		to = pj_profile_meta(p, key);
		if (to && strcmp(to, name))
			best = find_event(p, to);
	}
	return best;
}

static int add_label(struct report *r, const char *text, uint32_t *id)
{
	char **l = realloc(r->labels, (r->nlabels + 1) * sizeof(*l));

	if (!l)
		return -1;
	r->labels = l;
	l[r->nlabels] = strdup(text);
	if (!l[r->nlabels])
		return -1;
	*id = r->p->nframes + r->nlabels++;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The root key of a fold entry: its process (pid), or its thread (pid and
 * tid). */
static uint64_t root_key(const struct fold_entry *e, bool thread)
{
	return thread ? (uint64_t)e->pid << 32 | e->tid : e->pid;
}

/* The --threads root of a virtual thread's sample: REPORT_VMERGE, or one
 * per virtual thread and carrier; tid itself when it cannot be kept. */
static uint32_t vthread_key(struct report *r, const struct pj_sample *s)
{
	uint64_t k = (uint64_t)s->tid << 44 | (s->vthread & ((1ull << 44) - 1));
	uint32_t v;

	if (r->o->vmerge)
		return REPORT_VMERGE;
	if (u64map_get(&r->vkey_of, k, &v))
		return REPORT_VKEY | v;
	if (r->nvkeys >= REPORT_VKEY - 1 ||
	    GROW(r->vkeys, r->capvkeys, r->nvkeys + 1) ||
	    u64map_put(&r->vkey_of, k, (uint32_t)r->nvkeys))
		return s->tid;
	r->vkeys[r->nvkeys] = (struct report_vkey){ s->vthread, s->tid };
	return REPORT_VKEY | (uint32_t)r->nvkeys++;
}

/* A virtual thread's root: "[vt-3 #45 virtual, on worker-1 tid=12]". */
static void vthread_label(const struct report *r, uint32_t key, char *buf,
			  size_t len)
{
	const struct report_vkey *v;
	const char *name, *carrier;

	if (key == REPORT_VMERGE) {
		snprintf(buf, len, "[virtual threads]");
		return;
	}
	v = &r->vkeys[key & ~REPORT_VKEY];
	name = pj_profile_vthread_name(r->p, v->vthread);
	carrier = pj_profile_thread_name(r->p, 0, v->tid);
	snprintf(buf, len, "[%s%s#%llu virtual, on %s tid=%u]",
		 name ? name : "", name ? " " : "",
		 (unsigned long long)v->vthread, *carrier ? carrier : "?",
		 v->tid);
}

/* Root frames (--processes, --threads): labels for the sorted distinct
 * keys of the entries, from rt->first on. */
static int root_labels(struct report *r, const struct stackfold *f, bool thread,
		       struct report_roots *rt)
{
	size_t n = 0;
	uint64_t *k = malloc((f->n ? f->n : 1) * sizeof(*k));

	if (!k)
		return -1;
	for (size_t i = 0; i < f->n; i++)
		k[i] = root_key(&f->ents[i], thread);
	qsort(k, f->n, sizeof(*k), cmp_u64);
	for (size_t i = 0; i < f->n; i++)
		if (!n || k[n - 1] != k[i])
			k[n++] = k[i];
	rt->keys = k;
	rt->n = n;
	rt->first = r->p->nframes + r->nlabels;
	for (size_t i = 0; i < n; i++) {
		char buf[512];
		uint32_t id;

		if (thread && ((uint32_t)k[i] & REPORT_VKEY))
			vthread_label(r, (uint32_t)k[i], buf, sizeof(buf));
		else if (thread)
			report_thread_label(r->p, (uint32_t)(k[i] >> 32),
					    (uint32_t)k[i], buf, sizeof(buf));
		else
			report_process_label(r->p, (uint32_t)k[i], buf,
					     sizeof(buf));
		if (add_label(r, buf, &id))
			return -1;
	}
	return 0;
}

/* The label of entry e among the roots rt. */
static uint32_t root_of(const struct report_roots *rt,
			const struct fold_entry *e, bool thread)
{
	uint64_t key = root_key(e, thread);
	const uint64_t *at =
	    bsearch(&key, rt->keys, rt->n, sizeof(*rt->keys), cmp_u64);

	return rt->first + (uint32_t)(at - rt->keys);
}

static int build(struct report *r)
{
	const struct pj_profile *p = r->p;
	const struct report_opts *o = r->o;
	struct stackfold f;
	struct report_roots procs = { 0 }, threads = { 0 };
	uint32_t *pool, empty_label = 0;
	size_t nframes = 0, at = 0;
	bool per_thread = o->threads || o->fold_tid;
	int ret = -1;

	stackfold_init(&f);
	r->first_time = UINT64_MAX;
	if (o->per_sample) {
		r->sample_stack = malloc((p->nsamples ? p->nsamples : 1) *
					 sizeof(*r->sample_stack));
		if (!r->sample_stack)
			goto out;
	}
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_sample *s = &p->samples[i];

		if (r->sample_stack)
			r->sample_stack[i] = UINT32_MAX;
		if (!report_sample_selected(r, s))
			continue;
		if (stackfold_add(&f, s->stack,
				  o->processes || per_thread ? s->pid : 0,
				  o->threads && s->vthread ? vthread_key(r, s)
				  : per_thread		   ? s->tid
							   : 0,
				  s->period, s->batch > 1 ? s->batch : 1,
				  s->count > 1 ? s->count : 1))
			goto out;
		if (r->sample_stack)
			r->sample_stack[i] = (uint32_t)f.last;
		r->total_weight += s->period;
		r->total_samples += s->batch > 1 ? s->batch : 1;
		if (s->time < r->first_time)
			r->first_time = s->time;
		if (s->time > r->last_time)
			r->last_time = s->time;
	}
	if (!r->total_samples)
		r->first_time = 0;
	if (!r->total_weight && r->total_samples) {
		/* No periods recorded: weigh every sample as one. */
		r->unit = "samples";
		r->total_weight = r->total_samples;
		for (size_t i = 0; i < f.n; i++)
			f.ents[i].weight = f.ents[i].samples;
	}
	if ((o->processes && root_labels(r, &f, false, &procs)) ||
	    (o->threads && root_labels(r, &f, true, &threads)))
		goto out;
	if (add_label(r, "[no frames]", &empty_label))
		goto out;
	for (size_t i = 0; i < f.n; i++) {
		uint32_t st = f.ents[i].stack;

		nframes += p->stack_start[st + 1] - p->stack_start[st] + 1 +
			   report_nroots(r);
	}
	r->stacks = calloc(f.n ? f.n : 1, sizeof(*r->stacks));
	pool = malloc((nframes ? nframes : 1) * sizeof(*pool));
	if (!r->stacks || !pool) {
		free(pool);
		goto out;
	}
	r->nstacks = f.n;
	r->frame_pool = pool;
	for (size_t i = 0; i < f.n; i++) {
		const struct fold_entry *e = &f.ents[i];
		uint32_t lo = p->stack_start[e->stack];
		uint32_t hi = p->stack_start[e->stack + 1];
		struct report_stack *rs = &r->stacks[i];

		rs->frames = pool + at;
		if (o->processes)
			pool[at++] = root_of(&procs, e, false);
		if (o->threads)
			pool[at++] = root_of(&threads, e, true);
		if (o->reverse) /* leaf first, as in the file */
			for (uint32_t j = lo; j < hi; j++)
				pool[at++] = p->stack_frames[j];
		else /* the file is leaf first */
			for (uint32_t j = hi; j > lo; j--)
				pool[at++] = p->stack_frames[j - 1];
		if (hi == lo)
			pool[at++] = empty_label;
		rs->nframes = (uint32_t)(pool + at - rs->frames);
		rs->tid = e->tid;
		rs->pid = e->pid;
		rs->weight = e->weight;
		rs->samples = e->samples;
		rs->count = e->count;
	}
	ret = 0;
out:
	free(procs.keys);
	free(threads.keys);
	stackfold_free(&f);
	return ret;
}

/* Distinct threads among the selected samples (a map: no sort of them
 * all). */
static void count_threads(struct report *r)
{
	const struct pj_profile *p = r->p;
	struct u64map seen = { 0 };
	uint64_t last = UINT64_MAX;

	for (size_t i = 0; i < p->nsamples; i++) {
		const struct pj_sample *s = &p->samples[i];
		uint64_t key = (uint64_t)s->pid << 32 | s->tid;

		if (key == last || !report_sample_selected(r, s))
			continue;
		last = key;
		if (u64map_put(&seen, key + 1, 1))
			break;
	}
	r->nthreads = seen.n;
	u64map_free(&seen);
}

static void free_report(struct report *r)
{
	for (uint32_t i = 0; i < r->nlabels; i++)
		free(r->labels[i]);
	free(r->labels);
	free(r->vkeys);
	u64map_free(&r->vkey_of);
	free(r->stacks);
	free(r->frame_pool);
	free(r->stack_ok);
	free(r->tmatch);
	free(r->stack_state);
	free(r->sample_stack);
}

static void warn_incomplete(const char *path, const struct pj_profile *p)
{
	if (p->truncated)
		fprintf(stderr,
			"perfjava: warning: %s is truncated (recording was "
			"interrupted); reporting the %zu complete samples\n",
			path, p->nsamples);
	else if (!p->finished)
		fprintf(stderr,
			"perfjava: warning: %s has no end marker (recording "
			"still running or killed); reporting the %zu complete "
			"samples\n",
			path, p->nsamples);
}

/* Loads path and builds its report r; 0, or 1 after a message. */
static int load_report(const char *const *paths, unsigned int npaths,
		       struct report_opts *o, struct report *r,
		       struct report_merged *mg)
{
	const char *path = paths[0];
	struct pj_profile *p;
	char err[512];
	int rc;

	if (report_load_merged(paths, npaths, mg, err, sizeof(err))) {
		fprintf(stderr, "perfjava: %s\n", err);
		return 1;
	}
	p = mg->all[0];
	warn_incomplete(path, p);
	r->p = p;
	r->files = mg->all;
	r->nfiles = mg->n;
	r->o = o;
	/* --event wall: the file's event of that name (async-profiler's
	 * wall-clock samples), else all of them, the first for the unit */
	r->event = find_event(p, o->event && (strcmp(o->event, "wall") ||
					      find_event(p, "wall"))
				     ? o->event
				     : NULL);
	if (o->event && !r->event) {
		fprintf(stderr,
			"perfjava: %s has no samples of event %s; see the "
			"events in `perfjava report -i %s`\n",
			path, o->event, path);
		return 1;
	}
	rc = report_wall_setup(r, o);
	if (rc) {
		fprintf(stderr,
			rc == -1 ? "perfjava: %s has no off-CPU or wall-clock "
				   "samples for --event wall; record with "
				   "--wall (async-profiler: wall=)\n"
			: rc == -3
			    ? "perfjava: %s is not an off-CPU recording: "
			      "--state needs one made with -e offcpu "
			      "or --wall\n"
			    : "perfjava: out of memory reading %s\n",
			path);
		return 1;
	}
	r->unit = r->event && *r->event->unit ? r->event->unit : "events";
	r->start_ns = start_time(p);
	if (report_filter_stacks(r) || (count_threads(r), build(r))) {
		fprintf(stderr,
			"perfjava: out of memory building the report\n");
		return 1;
	}
	return 0;
}

/* Filters that leave no sample: say so instead of an empty report. */
static bool nothing_matched(const struct report *r)
{
	const struct report_opts *o = r->o;
	bool event_has = false;
	char which[128];

	if (r->total_samples || !r->p->nsamples)
		return false;
	if (!(o->ntids || o->npids || o->ninclude || o->nexclude ||
	      o->from > 0 || o->to >= 0 || o->event || o->states))
		return false;
	for (size_t i = 0; r->event && i < r->p->nsamples && !event_has; i++)
		event_has = r->p->samples[i].event == r->event->index;
	snprintf(which, sizeof(which), "%s%s%s%s%s%s", o->npids ? " --pid" : "",
		 o->ntids ? " --tid" : "",
		 o->ninclude || o->nexclude ? " --include/--exclude" : "",
		 o->from > 0 || o->to >= 0 ? " --from/--to" : "",
		 o->event && !event_has ? " --event" : "",
		 o->states ? " --state" : "");
	fprintf(stderr,
		"perfjava report: no sample of %s matches the filters (%s); "
		"loosen them, or see `perfjava report -i %s` for what it "
		"holds\n",
		o->input, which + 1, o->input);
	return true;
}

/* -o: a new file under a temporary name (lib/outfile.h), so that no link
 * is followed and a failed report leaves what was there. */
static FILE *open_output(struct outfile *of, const char *path)
{
	char err[512];
	FILE *f;

	if (outfile_create(of, path, 0666, false, err, sizeof(err))) {
		fprintf(stderr, "perfjava: %s\n", err);
		return NULL;
	}
	f = fdopen(of->fd, "w");
	if (!f) {
		fprintf(stderr, "perfjava: cannot write %s: %s\n", path,
			strerror(errno));
		outfile_discard(of);
		return NULL;
	}
	of->fd = -1; /* the FILE's now */
	return f;
}

/* Closes the output and gives it its name when ret (the report) is 0. */
static int close_output(struct outfile *of, FILE *f, int ret)
{
	char err[512];

	if (fclose(f) && !ret) {
		fprintf(stderr, "perfjava: cannot write %s: %s\n", of->path,
			strerror(errno));
		ret = 1;
	}
	if (!ret && outfile_commit(of, err, sizeof(err))) {
		fprintf(stderr, "perfjava: %s\n", err);
		ret = 1;
	}
	outfile_discard(of);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct report r = { 0 }, base = { 0 };
	struct report_merged p = { 0 }, old = { 0 };
	int (*write)(FILE *, const struct report *) = NULL;
	bool diff_ok = false;
	struct outfile of;
	FILE *out = stdout;
	int ret = 1, rc;

	rc = report_parse_opts(argc, argv, &o);
	if (rc) {
		report_opts_free(&o);
		return rc > 0 ? 0 : 2;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(o.format, formats[i].name)) {
			write = formats[i].write;
			diff_ok = formats[i].diff;
		}
	if (!write) {
		fprintf(stderr,
			"perfjava report: unknown format '%s' (text, "
			"collapsed, flame, tree, pprof, script, meta, jfr, "
			"heatmap)\n%s\n",
			o.format, report_usage());
		report_opts_free(&o);
		return 2;
	}
	if (o.diff && !diff_ok) {
		fprintf(stderr,
			"perfjava report: --diff works with --format flame "
			"or text, not %s\n",
			o.format);
		report_opts_free(&o);
		return 2;
	}
	if (o.minwidth > 0 && write != report_flame && write != report_tree) {
		fprintf(stderr,
			"perfjava report: --minwidth is for --format flame "
			"and tree; %s keeps every stack%s\n",
			o.format,
			write == report_collapsed
			    ? " (flamegraph.pl --minwidth drops narrow ones "
			      "as it draws)"
			    : "");
		report_opts_free(&o);
		return 2;
	}
	if (write == report_tree && o.output &&
	    !strcmp(report_format_of(o.output) ?: "", "flame"))
		write = report_tree_html;
	if (write == report_text && o.diff)
		write = report_diff_text;
	if (write == report_pprof)
		o.fold_tid = true;
	if (write == report_heatmap)
		o.per_sample = true;
	if (write == report_jfr && !o.output && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "perfjava report: --format jfr is binary; "
				"write it to a file: -o FILE.jfr\n");
		goto out;
	}
	if (load_report(o.ninputs ? o.inputs : &o.input,
			o.ninputs ? o.ninputs : 1, &o, &r, &p))
		goto out;
	if (nothing_matched(&r))
		goto out;
	if (o.diff) {
		if (load_report(&o.diff, 1, &o, &base, &old))
			goto out;
		r.base = &base;
	}
	if (write == report_heatmap && report_heatmap_check(&r))
		goto out;
	if (o.output && !(out = open_output(&of, o.output)))
		goto out;
	errno = 0;
	rc = write(out, &r);
	if (fflush(out) || ferror(out) || rc) {
		fprintf(stderr, "perfjava: cannot write %s: %s\n",
			o.output ? o.output : "the report",
			errno ? strerror(errno) : "write error");
	} else {
		ret = 0;
	}
	if (out != stdout)
		ret = close_output(&of, out, ret);
out:
	free_report(&r);
	free_report(&base);
	report_merged_free(&p);
	report_merged_free(&old);
	report_opts_free(&o);
	return ret;
}
