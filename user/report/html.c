// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a self-contained HTML page with a call tree's data: the shared
 * skeleton (report/pages/page.html) with its @NAME@ slots filled by the
 * page's own parts, the title and the data. Everything is inline: no request
 * leaves the page (its Content-Security-Policy forbids any).
 */
#include <string.h>

#include "report/html.h"
#include "report/pages.h"

const struct html_page flame_page = {
	.style = pj_page_flame_css,
	.bar = pj_page_flame_bar,
	.body = pj_page_flame_html,
	.script = pj_page_flame_js,
};

const struct html_page tree_page = {
	.style = pj_page_tree_css,
	.bar = pj_page_tree_bar,
	.body = pj_page_tree_html,
	.script = pj_page_tree_js,
};

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

struct fill {
	const struct html_page *page;
	const char *title;
	const struct calltree *ct, *base;
	bool by_total;
	double minfrac;
};

/* Writes the slot name (len bytes): 1 when name is no slot, -1 when the
 * data cannot be written. */
static int slot(FILE *out, const char *name, size_t len, const struct fill *f)
{
	const struct {
		const char *name, *text;
	} parts[] = {
		{ "STYLE", f->page->style },
		{ "BAR", f->page->bar },
		{ "BODY", f->page->body },
		{ "SCRIPT", f->page->script },
		{ "COMMON_CSS", pj_page_common_css },
		{ "COMMON_JS", pj_page_common_js },
	};

	if (len == 5 && !memcmp(name, "TITLE", 5)) {
		html_text(out, f->title);
		return 0;
	}
	if (len == 4 && !memcmp(name, "DATA", 4))
		return calltree_write_js(out, f->ct, f->base, f->by_total,
					 f->minfrac);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (strlen(parts[i].name) == len &&
		    !memcmp(parts[i].name, name, len)) {
			fputs(parts[i].text, out);
			return 0;
		}
	}
	return 1;
}

int html_page_write(FILE *out, const struct html_page *page, const char *title,
		    const struct calltree *ct, const struct calltree *base,
		    bool by_total, double minfrac)
{
	const struct fill f = { page, title, ct, base, by_total, minfrac };
	const char *s = pj_page_html, *at, *close;

	while ((at = strchr(s, '@')) && (close = strchr(at + 1, '@'))) {
		int r;

		fwrite(s, 1, (size_t)(at - s), out);
		r = slot(out, at + 1, (size_t)(close - at - 1), &f);
		if (r < 0)
			return -1;
		if (r > 0) { /* a lone '@' of the text */
			putc('@', out);
			s = at + 1;
			continue;
		}
		s = close + 1;
	}
	fputs(s, out);
	return 0;
}
