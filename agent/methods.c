// SPDX-License-Identifier: GPL-2.0
/*
 * The methods a session names: each sent once to the reader (PJA_METHOD:
 * class, name, signature, source file and line table), and a walk's frames
 * made into what goes on the wire, named and typed by the code map
 * (codemap.c). On the session thread, below the pump (wring.c) and the
 * answers to the reader's requests (blocked.c, copywalk.c, agent.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfjava/profile.h"
#include "pja.h"
#include "codemap.h"
#include "methods.h"
#include "out.h"

static void dealloc(void *p)
{
	jvmtiEnv *jv = pja.jvmti;

	if (p)
		(*jv)->Deallocate(jv, p);
}

/* "Ljava/util/zip/Deflater;" -> "java.util.zip.Deflater" */
static void java_class_name(const char *sig, char *buf, size_t len)
{
	size_t n = 0;

	if (*sig == 'L')
		sig++;
	for (; *sig && n + 1 < len; sig++) {
		if (*sig == ';' && !sig[1])
			break;
		buf[n++] = *sig == '/' ? '.' : *sig;
	}
	buf[n] = 0;
}

/* Into buf itself: no name buffer on the stack (a sample's 1 KiB stack copy
 * must reach the frames below, so that the agent's own samples are named). */
int method_full_name(jmethodID m, char *buf, size_t len)
{
	jclass k = NULL;
	char *csig = NULL, *name = NULL, *msig = NULL;
	jvmtiEnv *jv = pja.jvmti;
	size_t n;
	int ret = -1;

	if (!len || (*jv)->GetMethodDeclaringClass(jv, m, &k) ||
	    (*jv)->GetClassSignature(jv, k, &csig, NULL) ||
	    (*jv)->GetMethodName(jv, m, &name, &msig, NULL))
		goto out;
	java_class_name(csig, buf, len < 512 ? len : 512);
	n = strlen(buf);
	/* with the signature, as the METHOD message's name reads */
	if (snprintf(buf + n, len - n, ".%s%s", name, msig ? msig : "") >=
	    (int)(len - n))
		snprintf(buf + n, len - n, ".%s", name);
	ret = 0;
out:
	dealloc(csig);
	dealloc(name);
	dealloc(msig);
	return ret;
}

/* The set of methods sent in this session (open addressing). */
static uint64_t *sent;
static size_t sent_cap, sent_n;
static JNIEnv *sess_env; /* the session thread's */

void methods_reset(JNIEnv *env)
{
	sess_env = env;
	if (sent)
		memset(sent, 0, sent_cap * sizeof(*sent));
	sent_n = 0;
}

static int sent_insert(uint64_t id)
{
	size_t i;

	if ((sent_n + 1) * 2 > sent_cap) {
		size_t cap = sent_cap ? sent_cap * 2 : 4096, j;
		uint64_t *p = calloc(cap, sizeof(*p));

		if (!p)
			return 0;
		for (j = 0; j < sent_cap; j++) {
			if (!sent[j])
				continue;
			for (i = (sent[j] >> 3) & (cap - 1); p[i];
			     i = (i + 1) & (cap - 1))
				;
			p[i] = sent[j];
		}
		free(sent);
		sent = p;
		sent_cap = cap;
	}
	for (i = (id >> 3) & (sent_cap - 1); sent[i];
	     i = (i + 1) & (sent_cap - 1))
		if (sent[i] == id)
			return 0;
	sent[i] = id;
	sent_n++;
	return 1;
}

static int cmp_line(const void *a, const void *b)
{
	const struct pja_line *x = a, *y = b;

	return (x->start_bci > y->start_bci) - (x->start_bci < y->start_bci);
}

void method_send(jmethodID m)
{
	struct pja_method pm = { .id = (uintptr_t)m };
	jclass k = NULL;
	/* the session thread's alone (so is the sent set): off the stack, as
	 * in method_full_name */
	static char cls[512], strs[2048];
	char *csig = NULL, *name = NULL, *msig = NULL, *file = NULL;
	jvmtiLineNumberEntry *lt = NULL;
	jvmtiEnv *jv = pja.jvmti;
	struct pja_line *lines = NULL;
	jint nl = 0, i;
	jboolean native = 0;
	size_t n;

	if (!m || !sent_insert((uintptr_t)m))
		return;
	cls[0] = 0;
	if (!(*jv)->GetMethodDeclaringClass(jv, m, &k)) {
		if (!(*jv)->GetClassSignature(jv, k, &csig, NULL))
			java_class_name(csig, cls, sizeof(cls));
		(*jv)->GetSourceFileName(jv, k, &file);
	}
	(*jv)->GetMethodName(jv, m, &name, &msig, NULL);
	(*jv)->IsMethodNative(jv, m, &native);
	if (!native && !(*jv)->GetLineNumberTable(jv, m, &nl, &lt) && nl > 0)
		lines = calloc(nl, sizeof(*lines));
	for (i = 0; lines && i < nl; i++) {
		lines[i].start_bci = lt[i].start_location;
		lines[i].line = lt[i].line_number;
	}
	if (lines)
		qsort(lines, nl, sizeof(*lines), cmp_line);
	else
		nl = 0;
	if (!cls[0])
		strcpy(cls, "[unknown class]");
	pm.class_len = strlen(cls);
	pm.name_len = name ? strlen(name) : 0;
	pm.sig_len = msig ? strlen(msig) : 0;
	pm.file_len = file ? strlen(file) : 0;
	if (pm.name_len + pm.sig_len + pm.file_len + pm.class_len >
	    sizeof(strs)) {
		pm.sig_len = 0;
		pm.file_len = 0;
		if (pm.name_len + pm.class_len > sizeof(strs))
			pm.name_len = sizeof(strs) - pm.class_len;
	}
	pm.nlines = nl;
	pm.flags = native ? PJA_METHOD_NATIVE : 0;
	n = 0;
	memcpy(strs + n, cls, pm.class_len);
	n += pm.class_len;
	memcpy(strs + n, name, pm.name_len);
	n += pm.name_len;
	memcpy(strs + n, msig, pm.sig_len);
	n += pm.sig_len;
	memcpy(strs + n, file, pm.file_len);
	n += pm.file_len;
	out_msg(PJA_METHOD, &pm, sizeof(pm), strs, n, lines,
		nl * sizeof(*lines));
	free(lines);
	dealloc(lt);
	dealloc(csig);
	dealloc(name);
	dealloc(msig);
	dealloc(file);
	if (k && sess_env)
		(*sess_env)->DeleteLocalRef(sess_env, k);
}

unsigned int walk_top(uint64_t pc, uint32_t how, struct asgct_frame *raw,
		      unsigned int n, uint32_t *flags)
{
	if (n && how == PJA_HOW_COMPILED)
		n = codemap_top(pc, raw, n, pja.depth);
	else if (n && how == PJA_HOW_DIRECT)
		n = codemap_retop(pc, raw, n, pja.depth);
	if (n >= pja.depth)
		*flags |= PJA_WALK_TRUNCATED;
	return n;
}

void method_frames(uint64_t pc, struct asgct_frame *raw, struct pja_frame *out,
		   unsigned int n)
{
	unsigned int i;

	memset(out, 0, n * sizeof(*out));
	codemap_classify(pc, raw, out, n);
	for (i = 0; i < n; i++) {
		method_send(raw[i].method);
		out[i].method = (uintptr_t)raw[i].method;
		out[i].bci = raw[i].lineno;
	}
}

unsigned int walk_frames(uint64_t pc, uint32_t *flags, struct asgct_frame *raw,
			 unsigned int n, struct pja_frame *out)
{
	static struct asgct_frame x[PJA_MAX_DEPTH];
	static uint8_t types[PJA_MAX_DEPTH];
	unsigned int i;
	int cut;

	if (!(*flags & PJA_WALK_RAW)) {
		n = walk_top(pc, PJA_WALK_HOW(*flags), raw, n, flags);
		method_frames(pc, raw, out, n);
		return n;
	}
	*flags &= ~PJA_WALK_RAW;
	n = codemap_expand(raw, n, x, types, pja.depth, &cut);
	if (cut || n >= pja.depth)
		*flags |= PJA_WALK_TRUNCATED;
	for (i = 0; i < n; i++) {
		method_send(x[i].method);
		out[i] = (struct pja_frame){ .method = (uintptr_t)x[i].method,
					     .bci = x[i].lineno,
					     .type = types[i] };
	}
	return n;
}
