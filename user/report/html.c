// SPDX-License-Identifier: GPL-2.0
/* Writing a self-contained HTML page with a call tree's data. */
#include "report/html.h"

static void html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			if ((unsigned char)*s >= 0x20)
				putc(*s, out);
		}
	}
}

int html_page_write(FILE *out, const struct html_page *page, const char *title,
		    const struct calltree *ct, const struct calltree *base,
		    bool by_total, double minfrac)
{
	fputs(page->head, out);
	html_text(out, title);
	fputs(page->mid, out);
	html_text(out, title);
	fputs(page->body, out);
	if (calltree_write_js(out, ct, base, by_total, minfrac))
		return -1;
	fputs(page->tail, out);
	return 0;
}
