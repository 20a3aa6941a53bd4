/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing and reading the profile file (format: include/perfjava/profile.h).
 *
 * The writer interns strings, frames and stacks (each stored once) and buffers
 * new definitions and samples; pj_writer_flush() appends them as chunks in
 * dependency order (strings, frames, stacks, threads, samples). The reader
 * loads a whole file into flat arrays for the report.
 */
#ifndef PJ_USER_PROFILE_H
#define PJ_USER_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <perfjava/profile.h>

struct pj_sample {
	uint64_t time; /* CLOCK_MONOTONIC ns */
	uint64_t period;
	uint32_t tid;
	uint32_t cpu;
	uint32_t event; /* index into the events table */
	uint32_t stack; /* stack id */
	uint32_t info; /* string id, 0 = none */
	uint32_t switches; /* context switches since the thread's last sample */
	uint64_t count; /* occurrences it stands for; 0 or 1: one */
	uint64_t vthread; /* the virtual thread on the carrier tid, 0 none */
	uint32_t pid; /* its process; 0: the idle task, or not known */
	uint32_t batch; /* samples it stands for (a JFR event's "samples",
			   weighed by period); 0 or 1: one */
};

struct pj_frame {
	uint8_t type; /* enum pj_frame_type */
	uint32_t name; /* string ids */
	uint32_t module;
	uint32_t file;
	uint32_t line;
	uint64_t addr; /* as perf shows it (PJ_CHUNK_ADDRS), 0 = unknown */
};

struct pj_event_desc {
	uint32_t index;
	const char *name;
	const char *unit;
	uint64_t type, config, period, freq;
};

struct pj_thread {
	uint32_t tid, pid;
	uint32_t name; /* string id */
};

struct pj_vthread {
	uint64_t id;
	const char *name;
	size_t order;
};

/* A recorded process (PJ_CHUNK_PROCESSES). */
struct pj_process {
	uint32_t pid;
	uint8_t kind; /* enum pj_process_kind */
	uint32_t flags; /* PJ_PROC_F_* */
	uint32_t comm, cmdline, container; /* string ids */
};

struct pj_kv {
	char *key;
	char *value; /* META */
	uint64_t num; /* STATS */
};

/* --- writer --- */

struct pj_writer;

/*
 * What a writer in memory hands on as it takes it (perfjava top): each
 * sample, each thread's name, each process's name and command line (text
 * already made safe for a terminal, lib/text.h), in the order the file
 * would have them; a sample's stack and frames are then the writer's
 * (pj_writer_stack_frames). Any callback may be NULL.
 */
struct pj_writer_tap {
	void (*sample)(void *ctx, const struct pj_sample *s);
	void (*thread)(void *ctx, uint32_t tid, uint32_t pid, const char *name);
	void (*process)(void *ctx, uint32_t pid, enum pj_process_kind kind,
			const char *comm, const char *cmdline);
	void *ctx;
};

/*
 * A new file for path (lib/outfile.h: under a temporary name; an existing
 * path that is not a regular file of ours is refused). NULL with a message
 * in err on error, and nothing left behind.
 */
struct pj_writer *pj_writer_open(const char *path, char *err, size_t errlen);
/*
 * The file takes its name (an older one becomes NAME.old): once the
 * recording has really started, so that a failed start loses nothing and a
 * recorder killed later leaves its complete chunks there. pj_writer_close
 * does it when it was not done. 0, or -1 with a message in err.
 */
int pj_writer_commit(struct pj_writer *w, char *err, size_t errlen);
/* A writer of no file: its chunks are dropped as they are flushed, what
 * they hold handed to tap (which must outlive it). NULL out of memory. */
struct pj_writer *pj_writer_open_mem(const struct pj_writer_tap *tap);
uint32_t pj_writer_string(struct pj_writer *w, const char *s);
uint32_t pj_writer_frame(struct pj_writer *w, enum pj_frame_type type,
			 const char *name, const char *module, const char *file,
			 uint32_t line);
/* Frame's address as perf shows it (see PJ_CHUNK_ADDRS); the first one
 * given for a frame is kept, 0 is none. */
void pj_writer_frame_addr(struct pj_writer *w, uint32_t frame, uint64_t addr);
/* frames: leaf first */
uint32_t pj_writer_stack(struct pj_writer *w, const uint32_t *frames,
			 unsigned int n);
int pj_writer_meta(struct pj_writer *w, const char *key, const char *value);
int pj_writer_event(struct pj_writer *w, const struct pj_event_desc *ev);
int pj_writer_vthread(struct pj_writer *w, uint64_t id, const char *name);
int pj_writer_thread(struct pj_writer *w, uint32_t tid, uint32_t pid,
		     const char *name);
/* A recorded process: what it is (flags PJ_PROC_F_*), its name, command
 * line and container (NULL or "" for none); written again when one of
 * them changes. */
int pj_writer_process(struct pj_writer *w, uint32_t pid,
		      enum pj_process_kind kind, uint32_t flags,
		      const char *comm, const char *cmdline,
		      const char *container);
int pj_writer_sample(struct pj_writer *w, const struct pj_sample *s);
int pj_writer_stat(struct pj_writer *w, const char *key, uint64_t value);
/* What the writer's ids are (for a writer in memory's reader): string id's
 * text ("" for 0 or an unknown id), valid until the next string is
 * interned; frame id in *f (0; -1 for an unknown id; addr left 0); stack
 * id's frames, leaf first (*n of them; NULL and 0 for an unknown id),
 * valid until the next stack is interned. */
const char *pj_writer_str(const struct pj_writer *w, uint32_t id);
int pj_writer_frame_get(const struct pj_writer *w, uint32_t id,
			struct pj_frame *f);
const uint32_t *pj_writer_stack_frames(const struct pj_writer *w, uint32_t id,
				       unsigned int *n);
/* Bytes buffered but not yet written; callers flush when it grows. */
size_t pj_writer_pending(const struct pj_writer *w);
/* Appends everything buffered. -1 with errno on a write error. */
int pj_writer_flush(struct pj_writer *w);
/* Flushes, writes the END chunk, fsyncs, commits and frees. -1 on a write
 * error (then a file never committed is removed). */
int pj_writer_close(struct pj_writer *w);
/* Frees without writing END (used after a write error); a file never
 * committed is removed. */
void pj_writer_abort(struct pj_writer *w);
/* The last write error as text ("No space left on device"), or NULL. */
const char *pj_writer_error(const struct pj_writer *w);
uint64_t pj_writer_bytes(const struct pj_writer *w);

/* --- reader --- */

struct pj_profile {
	char **strings; /* strings[0] == "" */
	uint32_t nstrings;
	struct pj_frame *frames;
	uint32_t nframes;
	uint32_t *stack_start; /* nstacks + 1 entries */
	uint32_t *stack_frames; /* frames of stack i: [start[i], start[i+1]) */
	uint32_t nstacks;
	struct pj_sample *samples;
	size_t nsamples;
	struct pj_thread *threads; /* by tid, then pid */
	uint32_t nthreads;
	struct pj_vthread *vthreads; /* by id; see pj_profile_vthread_name */
	size_t nvthreads;
	struct pj_process *procs; /* by pid */
	uint32_t nprocs;
	uint32_t npids; /* processes named by samples, threads, procs */
	struct pj_event_desc *events;
	uint32_t nevents;
	struct pj_kv *meta;
	uint32_t nmeta;
	struct pj_kv *stats;
	uint32_t nstats;
	bool finished; /* END chunk seen */
	bool truncated; /* last chunk incomplete */
	uint32_t *event_at; /* PJ_MAX_EVENTS: index -> position in events + 1 */
	uint64_t created_ns; /* its header's CLOCK_REALTIME, 0: unknown */
	uint64_t file_size;
};

/*
 * Loads path. Returns 0 (a truncated file loads, with p->truncated set), or
 * -1 with a one-line reason in err ("not a perfjava profile", "damaged at
 * offset N: ...", "unsupported version N").
 */
int pj_profile_load(const char *path, struct pj_profile **out, char *err,
		    size_t errlen);
void pj_profile_free(struct pj_profile *p);
/* The event of that index, or NULL (O(1): pj_profile_index_events). */
const struct pj_event_desc *pj_profile_event(const struct pj_profile *p,
					     uint32_t index);
/* Makes p->event_at for p->events (a loaded profile has it; a profile
 * merged from several calls it again). 0, or -1 out of memory. */
int pj_profile_index_events(struct pj_profile *p);
const char *pj_profile_meta(const struct pj_profile *p, const char *key);
uint64_t pj_profile_stat(const struct pj_profile *p, const char *key,
			 uint64_t def);
/* The recording's start (CLOCK_MONOTONIC ns): its meta's, else its
 * stats'; 0 when it has neither. */
uint64_t pj_profile_start_ns(const struct pj_profile *p);
/* Name of virtual thread id, NULL when unnamed. */
const char *pj_profile_vthread_name(const struct pj_profile *p, uint64_t id);
/* Thread tid of process pid (pid 0: of any process), or NULL. */
const struct pj_thread *pj_profile_thread(const struct pj_profile *p,
					  uint32_t pid, uint32_t tid);
/* Name of thread tid of process pid (pid 0: of any process; "" when
 * unknown). */
const char *pj_profile_thread_name(const struct pj_profile *p, uint32_t pid,
				   uint32_t tid);
/* The process pid, or NULL when the file says nothing of it. */
const struct pj_process *pj_profile_process(const struct pj_profile *p,
					    uint32_t pid);
/* Sets p->npids: how many processes its samples, threads and processes
 * table name (after a change of them: report/multi.c). */
void pj_profile_count_pids(struct pj_profile *p);
static inline const char *pj_str(const struct pj_profile *p, uint32_t id)
{
	return id < p->nstrings ? p->strings[id] : "";
}

#endif
