/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perfjava profile file (perfjava.data), version 2 (readers also take
 * version 1, whose sample flags are one byte and whose samples carry no
 * pid: a v1 sample's pid is its thread's, from THREADS).
 *
 * Self-contained: every name a report shows is stored in the file. Append-only:
 * the recorder writes chunks as it goes, so a recorder killed with SIGKILL
 * leaves a file whose complete chunks still report.
 *
 * Layout
 *
 *   struct pj_file_header                       (32 bytes, once)
 *   { struct pj_chunk_header; payload[size] }   (repeated)
 *
 * All header integers are little-endian. A chunk's crc is CRC-32 (zlib's,
 * polynomial 0xedb88320) of its payload. Payloads are sequences of records
 * built from two primitives:
 *
 *   uv   unsigned LEB128 varint, at most 10 bytes for a u64
 *   sv   signed varint: zigzag-encoded, then uv
 *   str  uv length, then that many bytes (no terminating NUL)
 *
 * Identifiers are implicit: the n-th string ever written has id n (ids start
 * at 1; id 0 is "no string", the empty string). Frames and stacks are numbered
 * from 0 in the order they appear across all chunks of their type. Anything is
 * defined before it is used: a chunk refers only to ids defined in it or in
 * earlier chunks.
 *
 * Chunk payloads
 *
 *   PJ_CHUNK_META     { str key; str value; }*      later keys override
 *   PJ_CHUNK_STRINGS  { str s; }*
 *   PJ_CHUNK_FRAMES   { uv type; uv name; uv module; uv file; uv line; }*
 *                     name/module/file are string ids; type is enum
 *                     pj_frame_type; module is the DSO path for native frames
 *                     and the module name for kernel frames; line 0 = unknown
 *   PJ_CHUNK_STACKS   { uv nframes; uv frame[nframes]; }*   leaf first
 *   PJ_CHUNK_SAMPLES  { uv flags; sv dtime; [uv tid]; [uv cpu]; [uv event];
 *                       [uv period]; uv stack; [uv info]; [uv switches];
 *                       [uv count]; [uv vthread]; [uv pid]; }*
 *                     Fields in [] are present when their PJ_S_* flag is
 *                     set; otherwise they repeat the previous sample's value.
 *                     dtime is the difference to the previous sample's time.
 *                     Every SAMPLES chunk starts from time 0, tid 0, cpu 0,
 *                     event 0, period 0, info 0, pid 0. (Version 1: flags
 *                     is one byte, and there is no pid.) pid is the
 *                     sample's process (0: the idle task, or not known:
 *                     then its thread's). Time is CLOCK_MONOTONIC ns
 *                     (the perf_event clock). info is a string id with
 *                     per-sample detail (decoded tracepoint fields), 0 = none.
 *                     switches (present when not 0, else 0): the thread's
 *                     context switches since its previous sample of a
 *                     cpu-clock or task-clock event; each weighs the STATS
 *                     value switch_cost_ps (see pipeline/switchcost.h).
 *                     count (present when over 1, else 1): how many
 *                     occurrences the sample stands for (the objects an
 *                     allocation sample estimates). vthread (present when
 *                     not 0, else 0): the id of the virtual thread that
 *                     ran on the thread tid (its carrier).
 *   PJ_CHUNK_THREADS  { uv tid; uv pid; str name; }*   later entries rename
 *                     (per pid and tid)
 *   PJ_CHUNK_PROCESSES { uv pid; uv kind; uv flags; str comm; str cmdline;
 *                       str container; }*   later entries of a pid replace
 *                     the recorded processes: kind is enum pj_process_kind,
 *                     flags PJ_PROC_F_*; comm its program's name, cmdline
 *                     its arguments separated by spaces, container the
 *                     name of its container ("" for none). Optional (files of one
 *                     target made before it have only META's pid).
 *   PJ_CHUNK_EVENTS   { uv index; str name; str unit; uv type; uv config;
 *                       uv period; uv freq; }*
 *                     unit is what a period counts ("ns", "events", ...);
 *                     freq != 0 when sampled by frequency (period = hz)
 *   PJ_CHUNK_STATS    { str key; uv value; }*       later keys override
 *   PJ_CHUNK_END      empty; the recorder stopped cleanly
 *   PJ_CHUNK_VTHREADS { uv id; str name; }*   a virtual thread's name
 *                     (samples' vthread); later entries rename; an id
 *                     without one is unnamed ("#id")
 *   PJ_CHUNK_ADDRS    { uv frame; uv addr; }*   a frame's address, as perf
 *                     shows it: a native function's in its file (as nm
 *                     shows it; a nameless frame's, the first address seen
 *                     there, likewise), a kernel symbol's, JIT code's start
 *                     in the process. Optional (older files have none, and
 *                     Java frames from the agent's walks carry none): no
 *                     entry = unknown. The first entry of a frame counts.
 *
 * A reader stops at the first chunk that runs past the end of the file (a
 * truncated file: it reports what was complete and warns), and rejects a file
 * whose header, chunk magic, crc or ids are wrong (a damaged file).
 */
#ifndef PERFJAVA_PROFILE_H
#define PERFJAVA_PROFILE_H

#include <stdint.h>

#define PJ_FILE_MAGIC "PJAVAPRF"
#define PJ_FILE_VERSION 2
#define PJ_FILE_VERSION_MIN 1 /* the oldest a reader takes */
#define PJ_CHUNK_MAGIC 0x4b434a50u /* "PJCK" little-endian */
#define PJ_CHUNK_MAX (64u << 20)
/* Event indexes are below this (EVENTS, SAMPLES): a reader keeps a table of
 * them. */
#define PJ_MAX_EVENTS 4096u

struct pj_file_header {
	char magic[8]; /* PJ_FILE_MAGIC */
	uint32_t version; /* PJ_FILE_VERSION */
	uint32_t header_size; /* sizeof(struct pj_file_header) */
	uint64_t created_realtime_ns; /* CLOCK_REALTIME at creation */
	uint64_t reserved;
};

struct pj_chunk_header {
	uint32_t magic; /* PJ_CHUNK_MAGIC */
	uint16_t type; /* enum pj_chunk_type */
	uint16_t flags; /* 0 */
	uint32_t size; /* payload bytes that follow */
	uint32_t crc; /* CRC-32 of the payload */
};

enum pj_chunk_type {
	PJ_CHUNK_META = 1,
	PJ_CHUNK_STRINGS = 2,
	PJ_CHUNK_FRAMES = 3,
	PJ_CHUNK_STACKS = 4,
	PJ_CHUNK_SAMPLES = 5,
	PJ_CHUNK_THREADS = 6,
	PJ_CHUNK_EVENTS = 7,
	PJ_CHUNK_STATS = 8,
	PJ_CHUNK_END = 9,
	PJ_CHUNK_ADDRS = 10,
	PJ_CHUNK_VTHREADS = 11,
	PJ_CHUNK_PROCESSES = 12,
};

/* What a recorded process is (PJ_CHUNK_PROCESSES). */
enum pj_process_kind {
	PJ_PROC_USER = 0, /* a program */
	PJ_PROC_JVM = 1, /* a program running a JVM (libjvm.so) */
	PJ_PROC_KERNEL = 2, /* a kernel thread (kthreadd's) */
	PJ_PROC_IDLE = 3, /* pid 0: the CPUs' idle tasks */
	PJ_PROC_KIND_MAX
};

/* Process flags (PJ_CHUNK_PROCESSES). */
enum {
	PJ_PROC_F_TARGET = 1 << 0, /* named by the command (-p, -t, CMD) */
};

/* Sample record flags: which fields follow dtime. */
enum {
	PJ_S_TID = 1 << 0,
	PJ_S_CPU = 1 << 1,
	PJ_S_EVENT = 1 << 2,
	PJ_S_PERIOD = 1 << 3,
	PJ_S_INFO = 1 << 4,
	PJ_S_SWITCHES = 1 << 5,
	PJ_S_COUNT = 1 << 6,
	PJ_S_VTHREAD = 1 << 7,
	PJ_S_PID = 1 << 8, /* version 2 on */
};

/* Frame kinds; collapsed output suffixes follow async-profiler. */
enum pj_frame_type {
	PJ_FRAME_NATIVE = 0, /* C/C++ code in an ELF file */
	PJ_FRAME_KERNEL = 1, /* _[k] */
	PJ_FRAME_JIT = 2, /* _[j] Java, compiled (C2) */
	PJ_FRAME_INLINED = 3, /* _[i] Java, inlined into a compiled frame */
	PJ_FRAME_INTERPRETED = 4, /* _[0] Java, interpreted */
	PJ_FRAME_C1 = 5, /* _[1] Java, compiled by C1 */
	PJ_FRAME_JAVA_NATIVE = 6, /* a Java method declared native */
	PJ_FRAME_UNKNOWN = 7, /* [unknown]: an address in no known code */
	PJ_FRAME_MARKER = 8, /* e.g. [java: not walkable] */
	PJ_FRAME_VM = 9, /* code generated by the JVM: stubs, interpreter */
	PJ_FRAME_CLASS = 10, /* a class: what was allocated, or the lock */
	PJ_FRAME_TYPE_MAX
};

#endif
