// SPDX-License-Identifier: GPL-2.0
/*
 * `perfjava report --format jfr` on a profile of known content, its events
 * read back field by field from the file (report/jfr_emit.h): CPU
 * samples, waits as wall-clock samples that count the CPU samples' time
 * (a wait longer than one event holds split, short ones rounded over their
 * thread's waits), an allocation and two lock waits with their class in
 * the event and off the stack, a virtual thread's sample by its Java id;
 * one name typed both native and not (what the agent could not name) is
 * two methods, as ACC_NATIVE is a method's.
 */
#include <stdint.h>
#include <string.h>

#include "report/jfr_types.h"
#include "report_util.h"
#include "tap.h"

#define MS 1000000ull

static const uint8_t *at, *lim;

static uint64_t varint(void)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < 9 && at < lim; i++) {
		uint8_t b = *at++;

		if (i == 8)
			return v | (uint64_t)b << 56;
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (b < 0x80)
			break;
	}
	return v;
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* What the events of the file said. */
static struct {
	unsigned int cpu, wall, alloc, monitor, park, vt;
	uint64_t wall_samples, wall_span, big[3], big_span[3], big_t[3];
	unsigned int nbig;
	uint64_t alloc_weight, alloc_class, alloc_stack, monitor_ns, park_ns;
	uint64_t lock_class[2];
	uint64_t unnamed[2]; /* the method keys of the frames of lines 41, 42 */
} got;

/* The stack pool, the checkpoint's first: the methods of the two frames
 * named "[unknown class].", by their lines. */
static void read_stacks(const uint8_t *d, size_t n, uint64_t cp)
{
	uint64_t nst;

	if (cp >= n)
		return;
	at = d + cp;
	lim = d + n;
	varint(); /* size */
	if (varint() != JFR_T_CHECKPOINT)
		return;
	varint(), varint(), varint(); /* start, duration, delta */
	at++; /* flush */
	varint(); /* pools */
	if (varint() != JFR_T_STACK_TRACE)
		return;
	nst = varint();
	for (uint64_t i = 0; i < nst && at < lim; i++) {
		uint64_t nf;

		varint(); /* id */
		at++; /* truncated */
		nf = varint();
		for (uint64_t j = 0; j < nf && at < lim; j++) {
			uint64_t m = varint(), line = varint();

			varint(), varint(); /* bci, type */
			if (line == 41 || line == 42)
				got.unnamed[line - 41] = m;
		}
	}
}

static void read_events(const uint8_t *d, size_t n)
{
	uint64_t cp = be64(d + 16), meta = be64(d + 24);

	if (n < JFR_HEADER_SIZE || cp > n || meta >= cp)
		return;
	at = d + meta;
	lim = d + cp;
	at = d + meta + varint(); /* past the metadata event */
	while (at < lim) {
		const uint8_t *ev = at;
		uint64_t size = varint(), type = varint(), f[8];

		for (int i = 0; i < 8; i++)
			f[i] = varint();
		at = ev + size;
		if (!size)
			break;
		switch (type) {
		case JFR_T_EXECUTION_SAMPLE:
			got.cpu++;
			got.vt += f[1] == 77;
			break;
		case JFR_T_WALL_CLOCK_SAMPLE:
			got.wall++;
			got.wall_samples += f[4];
			got.wall_span += f[5];
			if (f[1] == 5 && got.nbig < 3) {
				got.big_t[got.nbig] = f[0];
				got.big_span[got.nbig] = f[5];
				got.big[got.nbig++] = f[4];
			}
			break;
		case JFR_T_ALLOCATION_SAMPLE:
			got.alloc++;
			got.alloc_stack = f[2];
			got.alloc_class = f[3];
			got.alloc_weight = f[4];
			break;
		case JFR_T_MONITOR_ENTER:
			got.monitor++;
			got.monitor_ns = f[1];
			got.lock_class[0] = f[4];
			break;
		case JFR_T_THREAD_PARK:
			got.park++;
			got.park_ns = f[1];
			got.lock_class[1] = f[4];
			break;
		}
	}
}

static void sample(struct pj_writer *w, uint32_t ev, uint32_t st, uint32_t tid,
		   uint64_t t, uint64_t period, uint64_t vt)
{
	struct pj_sample s = { .time = t,
			       .period = period,
			       .tid = tid,
			       .event = ev,
			       .stack = st,
			       .vthread = vt,
			       .pid = 5 };

	pj_writer_sample(w, &s);
}

static int make(const char *path)
{
	struct pj_event_desc evs[] = {
		{ 1, "offcpu", "ns", 1, 0, 1, 0 },
		{ 2, "alloc", "bytes", 1, 0, 524288, 0 },
		{ 3, "lock", "ns", 1, 0, 10000, 0 },
	};
	struct pj_writer *w = report_writer(path);
	uint32_t run, sleep, cls, obj, sync, park, lsp, u1, u2, f[4];
	uint32_t cpu, wait, alloc, mon, prk, unnamed;
	uint64_t t = 1000 * MS;

	if (!w)
		return -1;
	for (size_t i = 0; i < sizeof(evs) / sizeof(*evs); i++)
		pj_writer_event(w, &evs[i]);
	pj_writer_thread(w, 5, 5, "main");
	pj_writer_thread(w, 6, 5, "worker");
	pj_writer_vthread(w, 77, "vt-x");
	run = pj_writer_frame(w, PJ_FRAME_JIT, "T.run()V", NULL, NULL, 0);
	sleep = pj_writer_frame(w, PJ_FRAME_MARKER, "[off-cpu: sleep]", "",
				NULL, 0);
	cls = pj_writer_frame(w, PJ_FRAME_CLASS, "int[]", "", NULL, 0);
	obj =
	    pj_writer_frame(w, PJ_FRAME_CLASS, "java.lang.Object", "", NULL, 0);
	sync = pj_writer_frame(w, PJ_FRAME_JIT, "T.sync()V", NULL, NULL, 0);
	park = pj_writer_frame(w, PJ_FRAME_JAVA_NATIVE,
			       "jdk.internal.misc.Unsafe.park(ZJ)V", NULL, NULL,
			       0);
	lsp = pj_writer_frame(w, PJ_FRAME_INTERPRETED,
			      "java.util.concurrent.locks.LockSupport.park("
			      "Ljava/lang/Object;)V",
			      NULL, NULL, 0);
	u1 = pj_writer_frame(w, PJ_FRAME_INTERPRETED, "[unknown class].", NULL,
			     NULL, 41);
	u2 = pj_writer_frame(w, PJ_FRAME_JAVA_NATIVE, "[unknown class].", NULL,
			     NULL, 42);
	cpu = pj_writer_stack(w, &run, 1);
	f[0] = u2, f[1] = u1, f[2] = run;
	unnamed = pj_writer_stack(w, f, 3);
	f[0] = sleep, f[1] = run;
	wait = pj_writer_stack(w, f, 2);
	f[0] = cls, f[1] = run;
	alloc = pj_writer_stack(w, f, 2);
	f[0] = obj, f[1] = sync, f[2] = run;
	mon = pj_writer_stack(w, f, 3);
	f[0] = obj, f[1] = park, f[2] = lsp, f[3] = run;
	prk = pj_writer_stack(w, f, 4);
	for (int i = 0; i < 10; i++) /* 1 ms each: the unit */
		sample(w, 0, cpu, 5, t + i * MS, MS, 0);
	sample(w, 0, cpu, 6, t, MS, 77); /* the virtual thread's */
	sample(w, 0, unnamed, 5, t, MS, 0);
	sample(w, 1, wait, 5, t, 150000 * MS, 0); /* 150000 samples */
	for (int i = 0; i < 10; i++) /* 0.3 ms each: 3 samples in all */
		sample(w, 1, wait, 6, t + i * MS, 3 * MS / 10, 0);
	sample(w, 2, alloc, 5, t, 4096, 0);
	sample(w, 3, mon, 5, t, 7 * MS, 0);
	sample(w, 3, prk, 6, t, 9 * MS, 0);
	return pj_writer_close(w);
}

int main(void)
{
	char data[300], jfr[300];
	const char *d;
	size_t n;
	FILE *fp;
	static uint8_t buf[1 << 20];

	if (report_dir_make())
		return 1;
	snprintf(data, sizeof(data), "%s/p.data", dir);
	snprintf(jfr, sizeof(jfr), "%s/p.jfr", dir);
	ok(!make(data),
	   "a profile of CPU samples, waits, an allocation, locks");
	ok(!report("-i", data, "-o", jfr, (char *)NULL),
	   "report -o p.jfr: exit 0");
	fp = fopen(jfr, "rb");
	n = fp ? fread(buf, 1, sizeof(buf), fp) : 0;
	if (fp)
		fclose(fp);
	read_events(buf, n);
	if (n >= JFR_HEADER_SIZE)
		read_stacks(buf, n, be64(buf + 16));
	ok(got.cpu == 12 && got.vt == 1,
	   "12 jdk.ExecutionSample, the virtual thread's by its Java id (%u, "
	   "%u)",
	   got.cpu, got.vt);
	ok(got.wall == 13 && got.wall_samples == 150003 &&
	       got.wall_span == 150000 * MS + 3 * MS,
	   "waits: their whole time as timeSpan, in samples of the CPU "
	   "samples' 1 ms: 150000 + 3 for ten waits of 0.3 ms (%u events, "
	   "%llu samples)",
	   got.wall, (unsigned long long)got.wall_samples);
	ok(got.nbig == 3 && got.big[0] == 50000 && got.big[1] == 50000 &&
	       got.big[2] == 50000 && got.big_span[0] == 50000 * MS &&
	       got.big_span[1] == 50000 * MS &&
	       got.big_t[1] == got.big_t[0] + got.big_span[0] &&
	       got.big_t[2] == got.big_t[1] + got.big_span[1],
	   "a wait of 150000 samples: three events of 50000 samples and 50 s, "
	   "one after the other");
	ok(got.alloc == 1 && got.alloc_weight == 4096 && got.alloc_class &&
	       got.alloc_stack % 2 == 0,
	   "the allocation: jdk.ObjectAllocationSample, its class in the "
	   "event, its stack without it, weighing its bytes");
	ok(got.monitor == 1 && got.monitor_ns == 7 * MS && got.park == 1 &&
	       got.park_ns == 9 * MS && got.lock_class[0] &&
	       got.lock_class[0] == got.lock_class[1],
	   "the lock waits: jdk.JavaMonitorEnter, and jdk.ThreadPark where "
	   "it parked, their durations, the class in both");
	ok(got.unnamed[0] && got.unnamed[1] && got.unnamed[0] != got.unnamed[1],
	   "one name, interpreted and native: two methods (%llu, %llu)",
	   (unsigned long long)got.unnamed[0],
	   (unsigned long long)got.unnamed[1]);
	d = slurp(errf);
	ok(!*d, "nothing on stderr%s%s", *d ? ": " : "", d);
	report_dir_remove();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
