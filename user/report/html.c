// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a self-contained HTML page with its data: the shared skeleton
 * (report/pages/page.html) with its @NAME@ slots filled by the page's own
 * parts, which name the files of pages/ they are made of in the same way,
 * the title and the data. Everything is inline: no request leaves the page
 * (its Content-Security-Policy forbids any).
 */
#include <string.h>

#include "report/html.h"
#include "report/pages.h"

const struct html_page flame_page = {
	.style = "@FLAME_CSS@",
	.bar = "@FLAME_BAR@",
	.body = "@FLAME_HTML@",
	.script = "@COMMON_JS@\n@FLAME_JS@",
};

const struct html_page tree_page = {
	.style = "@TREE_CSS@",
	.bar = "@TREE_BAR@",
	.body = "@TREE_HTML@",
	.script = "@COMMON_JS@\n@TREE_JS@",
};

/* heatmap.js runs common.js and flame.js again for each selected range. */
const struct html_page heatmap_page = {
	.style = "@FLAME_CSS@\n@HEATMAP_CSS@",
	.bar = "@FLAME_BAR@",
	.body = "@HEATMAP_HTML@\n@FLAME_HTML@",
	.script = "@HEATMAP_JS@",
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
	html_data_fn data;
	const void *ctx;
};

static int expand(FILE *out, const char *s, const struct fill *f, int depth);

/* Writes the slot name (len bytes): 1 when name is no slot, -1 when the
 * data cannot be written. */
static int slot(FILE *out, const char *name, size_t len, const struct fill *f,
		int depth)
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
		{ "FLAME_CSS", pj_page_flame_css },
		{ "FLAME_BAR", pj_page_flame_bar },
		{ "FLAME_HTML", pj_page_flame_html },
		{ "FLAME_JS", pj_page_flame_js },
		{ "TREE_CSS", pj_page_tree_css },
		{ "TREE_BAR", pj_page_tree_bar },
		{ "TREE_HTML", pj_page_tree_html },
		{ "TREE_JS", pj_page_tree_js },
		{ "HEATMAP_CSS", pj_page_heatmap_css },
		{ "HEATMAP_HTML", pj_page_heatmap_html },
		{ "HEATMAP_JS", pj_page_heatmap_js },
	};

	if (len == 5 && !memcmp(name, "TITLE", 5)) {
		html_text(out, f->title);
		return 0;
	}
	if (len == 4 && !memcmp(name, "DATA", 4))
		return f->data(out, f->ctx);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strlen(parts[i].name) == len &&
		    !memcmp(parts[i].name, name, len))
			return expand(out, parts[i].text, f, depth + 1);
	return 1;
}

/* Writes s with its slots filled; parts nest at most 3 deep. */
static int expand(FILE *out, const char *s, const struct fill *f, int depth)
{
	const char *at, *close;

	if (depth > 3) { /* a part that names itself: the page's bug */
		fputs(s, out);
		return 0;
	}
	while ((at = strchr(s, '@')) && (close = strchr(at + 1, '@'))) {
		int r;

		fwrite(s, 1, (size_t)(at - s), out);
		r = slot(out, at + 1, (size_t)(close - at - 1), f, depth);
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

int html_page_write_data(FILE *out, const struct html_page *page,
			 const char *title, html_data_fn data, const void *ctx)
{
	const struct fill f = { page, title, data, ctx };

	return expand(out, pj_page_html, &f, 0);
}

struct tree_data {
	const struct calltree *ct, *base;
	bool by_total;
	double minfrac;
};

static int write_tree(FILE *out, const void *ctx)
{
	const struct tree_data *d = ctx;

	return calltree_write_js(out, d->ct, d->base, d->by_total, d->minfrac,
				 NULL);
}

int html_page_write(FILE *out, const struct html_page *page, const char *title,
		    const struct calltree *ct, const struct calltree *base,
		    bool by_total, double minfrac)
{
	const struct tree_data d = { ct, base, by_total, minfrac };

	return html_page_write_data(out, page, title, write_tree, &d);
}
