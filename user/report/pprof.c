// SPDX-License-Identifier: GPL-2.0
/*
 * pprof output: the published profile.proto (github.com/google/pprof,
 * proto/profile.proto), protobuf-encoded by hand and gzipped with zlib, for
 * go tool pprof, Pyroscope, Grafana and the like.
 *
 * Two sample values: "samples"/"count", and the event's weight (cpu-clock:
 * "cpu"/"nanoseconds"; another event: its name and unit). The default is the
 * weight with --total, the sample count otherwise. One location per frame
 * (its line in a Line entry), one function per (name, file), one mapping
 * per module, the main binary first, kernel frames in "[kernel.kallsyms]";
 * every sample has the labels "thread" (name) and "tid". A native frame's
 * location has its function's address and its mapping the file's
 * executable segment and build-id, read from the file on this machine
 * (report/elffile.h: link-time addresses; the recording keeps one frame per
 * function, not the sampled PCs); Java and kernel frames have address 0.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "report/calltree.h"
#include "report/elffile.h"
#include "report/report.h"
#include "lib/grow.h"
#include "lib/u64map.h"

#define NAME_LEN 4096

/* profile.proto field numbers. */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUETYPE_TYPE = 1,
	VALUETYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1,
	SAMPLE_VALUE = 2,
	SAMPLE_LABEL = 3,
	LABEL_KEY = 1,
	LABEL_STR = 2,
	LABEL_NUM = 3,
	MAPPING_ID = 1,
	MAPPING_MEMORY_START = 2,
	MAPPING_MEMORY_LIMIT = 3,
	MAPPING_FILE_OFFSET = 4,
	MAPPING_FILENAME = 5,
	MAPPING_BUILD_ID = 6,
	MAPPING_HAS_FUNCTIONS = 7,
	MAPPING_HAS_FILENAMES = 8,
	MAPPING_HAS_LINE_NUMBERS = 9,
	LOCATION_ID = 1,
	LOCATION_MAPPING_ID = 2,
	LOCATION_ADDRESS = 3,
	LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	LINE_LINE = 2,
	FUNCTION_ID = 1,
	FUNCTION_NAME = 2,
	FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4,
};

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

struct pb {
	uint8_t *d;
	size_t n, cap;
	bool oom;
};

static void pb_reserve(struct pb *b, size_t more)
{
	if (!b->oom && GROW(b->d, b->cap, b->n + more))
		b->oom = true;
}

static void pb_varint(struct pb *b, uint64_t v)
{
	pb_reserve(b, 10);
	if (b->oom)
		return;
	while (v >= 0x80) {
		b->d[b->n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->d[b->n++] = (uint8_t)v;
}

static void pb_uint(struct pb *b, unsigned int field, uint64_t v)
{
	pb_varint(b, (uint64_t)field << 3 | WIRE_VARINT);
	pb_varint(b, v);
}

static void pb_bytes(struct pb *b, unsigned int field, const void *p, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | WIRE_LEN);
	pb_varint(b, n);
	pb_reserve(b, n);
	if (b->oom)
		return;
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

/* Appends the message m as field of b and empties m for reuse. */
static void pb_msg(struct pb *b, unsigned int field, struct pb *m)
{
	if (m->oom)
		b->oom = true;
	pb_bytes(b, field, m->d, m->n);
	m->n = 0;
}

struct pprof {
	const struct report *r;
	struct pb out, msg, sub;
	struct ct_titles str; /* the string table; kind unused */
	uint32_t *loc_of; /* frame id -> location id, 0 = none yet */
	struct u64map func_of; /* (name, file) -> function id */
	uint32_t *map_of; /* module string id of the file -> mapping id */
	uint32_t nloc, nfunc, nmap, kernel_map;
	char *name;
	struct elffiles files; /* the native frames' files */
	bool objects; /* the first value counts allocated objects */
};

static uint64_t str(struct pprof *pp, const char *s)
{
	uint32_t i = ct_title_intern(&pp->str, s, 0);

	if (i == UINT32_MAX)
		pp->out.oom = true;
	return i == UINT32_MAX ? 0 : i;
}

static void value_type(struct pprof *pp, unsigned int field, const char *type,
		       const char *unit)
{
	pb_uint(&pp->msg, VALUETYPE_TYPE, str(pp, type));
	pb_uint(&pp->msg, VALUETYPE_UNIT, str(pp, unit));
	pb_msg(&pp->out, field, &pp->msg);
}

/* A mapping named file; e (when known) gives its segment and build-id. */
static uint32_t new_mapping(struct pprof *pp, const char *file,
			    const struct elffile *e)
{
	const char *id = elffile_build_id(e);

	pb_uint(&pp->msg, MAPPING_ID, ++pp->nmap);
	if (e && e->text) {
		pb_uint(&pp->msg, MAPPING_MEMORY_START, e->start);
		pb_uint(&pp->msg, MAPPING_MEMORY_LIMIT, e->limit);
		pb_uint(&pp->msg, MAPPING_FILE_OFFSET, e->offset);
	}
	pb_uint(&pp->msg, MAPPING_FILENAME, str(pp, file));
	if (*id)
		pb_uint(&pp->msg, MAPPING_BUILD_ID, str(pp, id));
	pb_uint(&pp->msg, MAPPING_HAS_FUNCTIONS, 1);
	pb_uint(&pp->msg, MAPPING_HAS_FILENAMES, 1);
	pb_uint(&pp->msg, MAPPING_HAS_LINE_NUMBERS, 1);
	pb_msg(&pp->out, PROFILE_MAPPING, &pp->msg);
	return pp->nmap;
}

/*
 * The mapping of a frame: its ELF file, or for kernel frames perf's
 * "[kernel.kallsyms]" (a kernel module's frames keep "[module]"), the name
 * pprof consumers (and perf_to_profile) use for kernel code.
 */
static uint32_t mapping(struct pprof *pp, const struct pj_frame *fr)
{
	const struct pj_profile *p = pp->r->p;
	const char *m = pj_str(p, fr->module);

	if (fr->type == PJ_FRAME_KERNEL &&
	    (!*m || !strcmp(m, "[kernel]") || !strcmp(m, "vmlinux"))) {
		if (!pp->kernel_map)
			pp->kernel_map =
			    new_mapping(pp, "[kernel.kallsyms]", NULL);
		return pp->kernel_map;
	}
	if (!fr->module || fr->module >= p->nstrings)
		return 0;
	if (!pp->map_of[fr->module] && fr->type == PJ_FRAME_KERNEL) {
		snprintf(pp->name, NAME_LEN, "[%s]", m);
		pp->map_of[fr->module] = new_mapping(pp, pp->name, NULL);
	} else if (!pp->map_of[fr->module]) {
		pp->map_of[fr->module] =
		    new_mapping(pp, m, elffiles_get(&pp->files, fr->module));
	}
	return pp->map_of[fr->module];
}

/*
 * pprof takes the first mapping for the main binary ("File:" in its
 * header): the module named by the command line's first word, else by the
 * process name, else (a JVM whose launcher no sample saw) a mapping of the
 * command itself, never the kernel or libjvm.so.
 */
static void main_mapping(struct pprof *pp)
{
	const struct pj_profile *p = pp->r->p;
	const char *cmd = pj_profile_meta(p, "cmdline");
	const char *comm = pj_profile_meta(p, "comm");
	size_t n = cmd ? strcspn(cmd, " ") : 0;
	uint32_t best = 0;

	for (uint32_t f = 0; f < p->nframes && n; f++) {
		const char *m = pj_str(p, p->frames[f].module);

		if (p->frames[f].type == PJ_FRAME_KERNEL || !*m)
			continue;
		if (strlen(m) == n && !strncmp(m, cmd, n)) {
			best = f + 1;
			break;
		}
		if (!best && comm && *comm && strrchr(m, '/') &&
		    !strcmp(strrchr(m, '/') + 1, comm))
			best = f + 1;
	}
	if (best) {
		mapping(pp, &p->frames[best - 1]);
	} else if (n) {
		snprintf(pp->name, NAME_LEN, "%.*s", (int)n, cmd);
		new_mapping(pp, pp->name, NULL);
	}
}

static uint32_t function(struct pprof *pp, uint32_t f)
{
	const struct pj_profile *p = pp->r->p;
	uint64_t name, file = 0, key;
	uint32_t id;

	/* Lines go to Line entries, kernel code to its mapping. */
	report_frame_name(pp->r, f, REPORT_BARE, pp->name, NAME_LEN);
	name = str(pp, pp->name);
	if (f < p->nframes && p->frames[f].file)
		file = str(pp, pj_str(p, p->frames[f].file));
	key = name << 32 | file;
	if (u64map_get(&pp->func_of, key, &id))
		return id;
	id = ++pp->nfunc;
	if (u64map_put(&pp->func_of, key, id))
		pp->out.oom = true;
	pb_uint(&pp->msg, FUNCTION_ID, id);
	pb_uint(&pp->msg, FUNCTION_NAME, name);
	pb_uint(&pp->msg, FUNCTION_SYSTEM_NAME, name);
	if (file)
		pb_uint(&pp->msg, FUNCTION_FILENAME, file);
	pb_msg(&pp->out, PROFILE_FUNCTION, &pp->msg);
	return id;
}

static uint32_t location(struct pprof *pp, uint32_t f)
{
	const struct pj_profile *p = pp->r->p;
	uint32_t map = 0, func, line = 0;
	uint64_t addr = 0;

	if (pp->loc_of[f])
		return pp->loc_of[f];
	if (f < p->nframes) {
		const struct pj_frame *fr = &p->frames[f];

		map = mapping(pp, fr);
		line = fr->line;
		if (fr->type == PJ_FRAME_NATIVE)
			addr =
			    elffile_addr(elffiles_get(&pp->files, fr->module),
					 pj_str(p, fr->name));
	}
	func = function(pp, f);
	pb_uint(&pp->sub, LINE_FUNCTION_ID, func);
	if (line)
		pb_uint(&pp->sub, LINE_LINE, line);
	pp->loc_of[f] = ++pp->nloc;
	pb_uint(&pp->msg, LOCATION_ID, pp->nloc);
	if (map)
		pb_uint(&pp->msg, LOCATION_MAPPING_ID, map);
	if (addr)
		pb_uint(&pp->msg, LOCATION_ADDRESS, addr);
	pb_msg(&pp->msg, LOCATION_LINE, &pp->sub);
	pb_msg(&pp->out, PROFILE_LOCATION, &pp->msg);
	return pp->nloc;
}

static void header(struct pprof *pp)
{
	const struct report *r = pp->r;
	const char *ev = r->event ? r->event->name : "events";
	const char *unit = r->unit, *count = "samples", *rt;
	uint64_t weight_type, dur;

	if (!strcmp(unit, "ns"))
		unit = "nanoseconds";
	else if (!strcmp(unit, "events") || !strcmp(unit, "samples"))
		unit = "count";
	if (!strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock"))
		ev = "cpu";
	/* the JVM's events as Go's and Pyroscope's profiles name them */
	if (!strcmp(ev, "alloc")) {
		count = "alloc_objects";
		ev = "alloc_space";
		pp->objects = true;
	} else if (!strcmp(ev, "lock")) {
		count = "contentions";
		ev = "delay";
		unit = "nanoseconds";
	}
	value_type(pp, PROFILE_SAMPLE_TYPE, count, "count");
	value_type(pp, PROFILE_SAMPLE_TYPE, ev, unit);
	weight_type = str(pp, ev);
	value_type(pp, PROFILE_PERIOD_TYPE, ev, unit);
	if (r->event && r->event->period && !r->event->freq)
		pb_uint(&pp->out, PROFILE_PERIOD, r->event->period);
	else if (r->total_samples)
		pb_uint(&pp->out, PROFILE_PERIOD,
			r->total_weight / r->total_samples);
	/* the recording's start (a --loop file's: its interval's), else
	 * when the file was made, a little before */
	rt = pj_profile_meta(r->p, "start_realtime_ns");
	pb_uint(&pp->out, PROFILE_TIME_NANOS,
		rt ? strtoull(rt, NULL, 10) : r->p->created_ns);
	dur = r->last_time > r->first_time ? r->last_time - r->first_time : 0;
	if (r->o->from <= 0 && r->o->to < 0)
		dur = pj_profile_stat(r->p, "duration_ns", dur);
	pb_uint(&pp->out, PROFILE_DURATION_NANOS, dur);
	pb_uint(&pp->out, PROFILE_COMMENT, str(pp, "perfjava"));
	pb_uint(&pp->out, PROFILE_DEFAULT_SAMPLE_TYPE,
		r->o->total ? weight_type : str(pp, count));
}

/* The labels of process pid: its pid, and its name ("process") and
 * container when recorded. */
static void process_labels(struct pprof *pp, uint32_t pid)
{
	const struct pj_profile *p = pp->r->p;
	const struct pj_process *pr = pj_profile_process(p, pid);

	pb_uint(&pp->sub, LABEL_KEY, str(pp, "pid"));
	pb_uint(&pp->sub, LABEL_NUM, pid);
	pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
	if (pr && pr->comm) {
		pb_uint(&pp->sub, LABEL_KEY, str(pp, "process"));
		pb_uint(&pp->sub, LABEL_STR, str(pp, pj_str(p, pr->comm)));
		pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
	}
	if (pr && pr->container) {
		pb_uint(&pp->sub, LABEL_KEY, str(pp, "container"));
		pb_uint(&pp->sub, LABEL_STR, str(pp, pj_str(p, pr->container)));
		pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
	}
}

static void sample(struct pprof *pp, const struct report_stack *s)
{
	const struct pj_profile *p = pp->r->p;
	struct pb ids = { 0 };
	uint64_t tid_key = str(pp, "tid"), thread_key = str(pp, "thread");
	const char *tname = pj_profile_thread_name(p, s->pid, s->tid);

	/* Locations leaf first: the report's frames are root first. */
	for (uint32_t j = s->nframes; j > 0; j--)
		pb_varint(&ids, location(pp, s->frames[j - 1]));
	pb_msg(&pp->msg, SAMPLE_LOCATION_ID, &ids);
	free(ids.d);
	/* alloc_objects: the objects the samples stand for */
	pb_varint(&pp->sub, pp->objects ? s->count : s->samples);
	pb_varint(&pp->sub, s->weight);
	pb_msg(&pp->msg, SAMPLE_VALUE, &pp->sub);
	if (*tname) {
		pb_uint(&pp->sub, LABEL_KEY, thread_key);
		pb_uint(&pp->sub, LABEL_STR, str(pp, tname));
		pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
	}
	pb_uint(&pp->sub, LABEL_KEY, tid_key);
	pb_uint(&pp->sub, LABEL_NUM, s->tid);
	pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
	if (s->pid) /* a process's samples apart (pprof -tagfocus=pid=N) */
		process_labels(pp, s->pid);
	pb_msg(&pp->out, PROFILE_SAMPLE, &pp->msg);
}

/* gzip (RFC 1952) of buf into out, at the speed level Go's runtime/pprof
 * uses: level 6 took two thirds of the time for 15% less size. */
static int gzip_write(FILE *out, const uint8_t *buf, size_t n)
{
	z_stream z = { 0 };
	uint8_t chunk[65536];
	int rc;

	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY))
		return -1;
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)n;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = deflate(&z, Z_FINISH);
		if (rc == Z_STREAM_ERROR)
			break;
		fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out);
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

int report_pprof(FILE *out, const struct report *r)
{
	size_t nids = (size_t)r->p->nframes + r->nlabels;
	struct pprof pp = { .r = r };
	int ret = -1;

	ct_titles_init(&pp.str);
	pp.loc_of = calloc(nids ? nids : 1, sizeof(*pp.loc_of));
	pp.map_of =
	    calloc(r->p->nstrings ? r->p->nstrings : 1, sizeof(*pp.map_of));
	pp.name = malloc(NAME_LEN);
	if (!pp.loc_of || !pp.map_of || !pp.name ||
	    elffiles_init(&pp.files, r->p))
		goto out;
	str(&pp, ""); /* string 0 */
	header(&pp);
	main_mapping(&pp);
	for (size_t i = 0; i < r->nstacks; i++)
		sample(&pp, &r->stacks[i]);
	for (uint32_t i = 0; i < pp.str.n; i++)
		pb_bytes(&pp.out, PROFILE_STRING_TABLE, pp.str.name[i],
			 strlen(pp.str.name[i]));
	if (pp.out.oom || pp.msg.oom || pp.sub.oom)
		goto out;
	/* A uint32 avail_in bounds one deflate call. */
	if (pp.out.n > UINT32_MAX)
		goto out;
	ret = gzip_write(out, pp.out.d, pp.out.n);
out:
	free(pp.out.d);
	free(pp.msg.d);
	free(pp.sub.d);
	free(pp.loc_of);
	free(pp.map_of);
	free(pp.name);
	u64map_free(&pp.func_of);
	ct_titles_free(&pp.str);
	if (pp.files.by_module)
		elffiles_free(&pp.files);
	return ret;
}
