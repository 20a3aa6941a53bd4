// SPDX-License-Identifier: GPL-2.0
/* Target text made terminal-safe (lib/text.h). */
#include "lib/text.h"

/* Length of the well-formed UTF-8 sequence at s (at most n bytes), 0 when
 * there is none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t need, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (need > n)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF, C1 controls */
	if ((need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
	    (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return need;
}

void text_clean(char *s, size_t len)
{
	unsigned char *u = (unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n = utf8_len(u + i, len - i);

		if (n == 1 && (u[i] < 0x20 || u[i] == 0x7f))
			n = 0;
		if (!n) {
			u[i++] = '?';
			continue;
		}
		i += n;
	}
}
