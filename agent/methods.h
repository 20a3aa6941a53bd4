/* SPDX-License-Identifier: GPL-2.0 */
/* methods.c: the methods a session names, and a walk's frames as they go
 * on the wire. */
#ifndef PJ_AGENT_METHODS_H
#define PJ_AGENT_METHODS_H

#include "pja.h"

/* Sends PJA_METHOD for m unless sent in this session. */
void method_send(jmethodID m);
/* A walk's frames as they go on the wire: typed by the code map from the
 * interrupted pc, each method's PJA_METHOD sent first. */
void method_frames(uint64_t pc, struct asgct_frame *raw, struct pja_frame *out,
		   unsigned int n);
/* A walk's length once a compiled top frame it stepped over (how) is named
 * (codemap_top); PJA_WALK_TRUNCATED added to *flags when it fills the
 * session's depth. */
unsigned int walk_top(uint64_t pc, uint32_t how, struct asgct_frame *raw,
		      unsigned int n, uint32_t *flags);
/* A walk's frames as they go on the wire, each method's PJA_METHOD sent
 * first: vmwalk's raw slots (PJA_WALK_RAW in *flags, then cleared) named and
 * typed by codemap_expand, or AsyncGetCallTrace's by walk_top and
 * method_frames; PJA_WALK_TRUNCATED added when the depth cut it. Returns
 * the count in out. On the session thread. */
unsigned int walk_frames(uint64_t pc, uint32_t *flags, struct asgct_frame *raw,
			 unsigned int n, struct pja_frame *out);
/* The methods sent forgotten, at a session's start (env: the session
 * thread's) and its end (NULL). */
void methods_reset(JNIEnv *env);
/* "java.util.zip.Deflater.deflate([BIII)I" into buf (without the
 * signature when it would not fit); 0 on success. */
int method_full_name(jmethodID m, char *buf, size_t len);

#endif
