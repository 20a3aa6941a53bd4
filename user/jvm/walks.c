// SPDX-License-Identifier: GPL-2.0
/*
 * What the reader makes of a walk's results (jvm/walks.h), whichever way
 * they came (a WALK_RESULT on the socket, jvm/messages.c, or the walk ring,
 * jvm/walkring.c): each frame named from the method table, with its line
 * from the method's line table, and the walk's outcome counted.
 */
#include <string.h>

#include "jvm/conn_internal.h"
#include "jvm/walks.h"
#include "lib/sorted.h"
#include "perfjava/profile.h"

static uint32_t bci_line(const struct jmethod *m, int32_t bci)
{
	size_t i;

	if (bci < 0 || !m->nlines)
		return 0;
	/* the last entry with start_bci <= bci */
	i = SORTED_UPTO(m->lines, m->nlines, start_bci, (uint32_t)bci);
	return i && m->lines[i - 1].line ? m->lines[i - 1].line
					 : m->lines[0].line;
}

bool java_same_method(const char *a, const char *b)
{
	while (*a && *a == *b && *a != '(')
		a++, b++;
	return (!*a || *a == '(') && (!*b || *b == '(') &&
	       (*a != '(' || *b != '(' || !strcmp(a, b));
}

static const int status_map[] = {
	[PJA_WALK_OK] = AGENT_WALK_OK,
	[PJA_WALK_NOT_JAVA] = AGENT_WALK_NOT_JAVA,
	[PJA_WALK_NOT_WALKABLE] = AGENT_WALK_NOT_WALKABLE,
	[PJA_WALK_TIMEOUT] = AGENT_WALK_TIMEOUT,
	[PJA_WALK_FAULT] = AGENT_WALK_FAULT,
	[PJA_WALK_GONE] = AGENT_WALK_GONE,
};

bool agent_name_frame(const struct agent *a, const struct pja_frame *f,
		      struct java_frame *out)
{
	const struct jmethod *m =
	    u64map_ptr(&a->methods, f->method ? f->method : 1);

	out->type = f->type < PJ_FRAME_TYPE_MAX ? f->type : 0;
	/* one name for a native method on every stack: the walk types its
	 * frame as compiled when the pc was in its wrapper's code */
	if (m && m->native)
		out->type = PJ_FRAME_JAVA_NATIVE;
	out->name = m ? m->name : "[unknown Java method]";
	out->file = m ? m->file : NULL;
	out->line = m ? bci_line(m, f->bci) : 0;
	return m || !f->method;
}

int agent_result_frames(struct agent *a, const char *p, uint32_t len,
			size_t hsize, uint32_t nframes)
{
	unsigned int i, n = nframes;

	if (len < hsize || (len - hsize) / sizeof(struct pja_frame) < n) {
		a->stats.dropped++;
		return -1;
	}
	if (n > a->hello.depth) /* frames holds depth + 1 */
		n = a->hello.depth;
	for (i = 0; i < n; i++) {
		struct pja_frame f;

		memcpy(&f, p + hsize + i * sizeof(f), sizeof(f));
		agent_name_frame(a, &f, &a->frames[i]);
	}
	return (int)n;
}

int agent_count_walk(struct agent *a, int32_t status, int32_t asgct,
		     uint32_t flags)
{
	int st = status >= 0 && status <= PJA_WALK_GONE
		     ? status_map[status]
		     : AGENT_WALK_NOT_WALKABLE;

	a->stats.results[st]++;
	if (flags & PJA_WALK_TRUNCATED)
		a->stats.truncated++;
	if (asgct < 0 && asgct > -16)
		a->stats.asgct[-asgct]++;
	if (st == AGENT_WALK_OK && PJA_WALK_HOW(flags) &&
	    PJA_WALK_HOW(flags) < 8)
		a->stats.recovered[PJA_WALK_HOW(flags)]++;
	return st;
}
