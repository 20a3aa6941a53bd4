/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text that came from a target (agent messages, /proc files, its attach
 * socket) made safe for a terminal or a file's header: no control
 * characters, no escape sequences, valid UTF-8.
 */
#ifndef PJ_USER_TEXT_H
#define PJ_USER_TEXT_H

#include <stddef.h>

/*
 * Replaces in s[0..len) every byte that a terminal could act on with '?':
 * C0 controls and DEL, NUL, C1 controls (U+0080..U+009F) and every byte
 * that is not part of a well-formed UTF-8 sequence. The length is kept.
 */
void text_clean(char *s, size_t len);

#endif
