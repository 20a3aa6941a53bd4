// SPDX-License-Identifier: GPL-2.0
/*
 * The processes of a report: the root frames of --processes and --threads
 * ("[java pid=9]", "[main tid=10 pid=9]") and, in text, the table of
 * processes with their command lines. A process is named by the file's
 * PROCESSES table; a file of one target made before it, by its metadata.
 */
#include <stdlib.h>
#include <string.h>

#include "report/header.h"
#include "report/procs.h"

/* The file's one target of older files (META pid), or 0. */
static uint32_t meta_pid(const struct pj_profile *p)
{
	const char *m = pj_profile_meta(p, "pid");

	return m ? (uint32_t)strtoul(m, NULL, 10) : 0;
}

static const char *comm_of(const struct pj_profile *p, uint32_t pid)
{
	const struct pj_process *pr = pj_profile_process(p, pid);
	const char *m;

	if (pr && pr->comm)
		return pj_str(p, pr->comm);
	if (pid && pid == meta_pid(p) && (m = pj_profile_meta(p, "comm")))
		return m;
	return pj_profile_thread_name(p, pid, pid);
}

const char *report_process_cmdline(const struct pj_profile *p, uint32_t pid)
{
	const struct pj_process *pr = pj_profile_process(p, pid);
	const char *m;

	if (pr)
		return pj_str(p, pr->cmdline);
	if (pid && pid == meta_pid(p) && (m = pj_profile_meta(p, "cmdline")))
		return m;
	return "";
}

void report_process_label(const struct pj_profile *p, uint32_t pid, char *buf,
			  size_t len)
{
	const struct pj_process *pr = pj_profile_process(p, pid);
	const char *comm = comm_of(p, pid);
	const char *ct = pr && pr->container ? pj_str(p, pr->container) : "";
	size_t n;

	if (pr && pr->kind == PJ_PROC_IDLE) {
		snprintf(buf, len, "[idle]");
		return;
	}
	if (!pid) { /* a sample no thread of the file names */
		snprintf(buf, len, "[unknown process]");
		return;
	}
	n = (size_t)snprintf(buf, len, "[%s%spid=%u", comm, *comm ? " " : "",
			     pid);
	if (n < len && *ct)
		n += (size_t)snprintf(buf + n, len - n, " container=%s", ct);
	if (n < len && pr && pr->kind == PJ_PROC_KERNEL)
		n += (size_t)snprintf(buf + n, len - n, " kernel");
	if (n < len)
		snprintf(buf + n, len - n, "]");
}

void report_thread_label(const struct pj_profile *p, uint32_t pid, uint32_t tid,
			 char *buf, size_t len)
{
	const char *name = pj_profile_thread_name(p, pid, tid);
	char where[32] = "";

	if (p->npids > 1 && pid)
		snprintf(where, sizeof(where), " pid=%u", pid);
	if (*name)
		snprintf(buf, len, "[%s tid=%u%s]", name, tid, where);
	else
		snprintf(buf, len, "[tid=%u%s]", tid, where);
}

struct proc_row {
	uint32_t pid;
	uint64_t weight, samples;
};

static int row_by_weight(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int row_by_pid(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int report_processes_text(FILE *out, const struct report *r)
{
	struct proc_row *v = calloc(r->nstacks ? r->nstacks : 1, sizeof(*v));
	size_t n = 0;
	char label[512];

	if (!v)
		return -1;
	for (size_t i = 0; i < r->nstacks; i++)
		v[i] = (struct proc_row){ r->stacks[i].pid, r->stacks[i].weight,
					  r->stacks[i].samples };
	qsort(v, r->nstacks, sizeof(*v), row_by_pid);
	for (size_t i = 0; i < r->nstacks; i++) {
		if (n && v[n - 1].pid == v[i].pid) {
			v[n - 1].weight += v[i].weight;
			v[n - 1].samples += v[i].samples;
		} else {
			v[n++] = v[i];
		}
	}
	qsort(v, n, sizeof(*v), row_by_weight);
	fprintf(out, "%12s  percent  samples  process  command line\n",
		r->unit);
	fprintf(out, "  ----------  -------  -------  -------\n");
	for (size_t i = 0; i < n && i < r->o->top; i++) {
		report_process_label(r->p, v[i].pid, label, sizeof(label));
		fprintf(out, "%12llu  %6.2f%%  %7llu  %s",
			(unsigned long long)v[i].weight,
			r->total_weight ? 100.0 * (double)v[i].weight /
					      (double)r->total_weight
					: 0.0,
			(unsigned long long)v[i].samples, label);
		if (*report_process_cmdline(r->p, v[i].pid)) {
			fputs("  ", out);
			report_put_line(
			    out, report_process_cmdline(r->p, v[i].pid), 200);
		}
		fputc('\n', out);
	}
	if (n > r->o->top)
		fprintf(out, "  (%zu more processes: --top N shows more)\n",
			n - r->o->top);
	fputc('\n', out);
	free(v);
	return 0;
}
