// SPDX-License-Identifier: GPL-2.0
/*
 * The call tree page, as C strings: the report writes
 * head, title, mid, title, body, the data (`const P = ...`), tail.
 * Self-contained: no request leaves the page (its Content-Security-Policy
 * forbids any). Edit the HTML/JS here directly.
 */
#include "report/html.h"

static const char tree_head[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\">\n"
    "<head>\n"
    "<meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>\n";

static const char tree_mid[] =
    "</title>\n"
    "<style>\n"
    "body { margin: 0; padding: 10px; font: 12px monospace; background: #fff; }\n"
    "h1 { margin: 0 0 6px 0; font: 16px sans-serif; }\n"
    "#bar { margin-bottom: 6px; font: 12px sans-serif; }\n"
    ".row { white-space: nowrap; cursor: default; line-height: 16px; }\n"
    ".row:hover { background: #ffffe0; }\n"
    ".tog { display: inline-block; width: 1.2em; cursor: pointer; color: #555; }\n"
    ".num { display: inline-block; width: 7em; text-align: right; margin-right: 1em; }\n"
    ".k0 { color: #2e7d32; } .k1 { color: #1b8a1b; } .k2 { color: #00838f; }\n"
    ".k3 { color: #c62828; } .k4 { color: #8d6e00; } .k5 { color: #d35400; }\n"
    ".k6 { color: #689f38; } .k7 { color: #555; }\n"
    "#head { font-weight: bold; }\n"
    "</style>\n"
    "</head>\n"
    "<body>\n"
    "<h1 id=\"title\">\n";

static const char tree_body[] =
    "</h1>\n"
    "<div id=\"bar\"><button id=\"expand\">Expand hottest path</button>\n"
    "<button id=\"collapse\">Collapse all</button> <span id=\"info\"></span></div>\n"
    "<div class=\"row\" id=\"head\"><span class=\"tog\"></span><span class=\"num\">total</span><span class=\"num\">self</span><span class=\"num\">count</span>frame</div>\n"
    "<div id=\"tree\"></div>\n"
    "<script>\n";

static const char tree_tail[] =
    "</script>\n"
    "<script>\n"
    "'use strict';\n"
    "(function () {\n"
    "const names = P.names, kinds = P.kinds, raw = P.nodes, N = raw.length / 3;\n"
    "const depth = new Int32Array(N), title = new Int32Array(N), end = new Int32Array(N);\n"
    "const val = new Float64Array(N), self = new Float64Array(N);\n"
    "(function build() {\n"
    "  const path = [];\n"
    "  for (let i = 0; i < N; i++) {\n"
    "    const d = raw[3 * i];\n"
    "    depth[i] = d; title[i] = raw[3 * i + 1]; val[i] = raw[3 * i + 2];\n"
    "    while (path.length > d) end[path.pop()] = i;\n"
    "    if (d) self[path[d - 1]] -= val[i];\n"
    "    self[i] += val[i];\n"
    "    path.push(i);\n"
    "  }\n"
    "  while (path.length) end[path.pop()] = N;\n"
    "})();\n"
    "const total = N ? val[0] : 0;\n"
    "function pct(v) { return (total ? 100 * v / total : 0).toFixed(2) + '%'; }\n"
    "function children(i) { const c = []; for (let j = i + 1; j < end[i]; j = end[j]) c.push(j); return c; }\n"
    "const rows = new Map(); // node -> {row, box, open}\n"
    "function makeRow(i, parentBox) {\n"
    "  const row = document.createElement('div'), kids = end[i] > i + 1;\n"
    "  row.className = 'row';\n"
    "  row.dataset.node = i;\n"
    "  row.style.paddingLeft = (depth[i] * 14) + 'px';\n"
    "  const tog = document.createElement('span');\n"
    "  tog.className = 'tog';\n"
    "  tog.textContent = kids ? '\\u25b8' : '';\n"
    "  row.appendChild(tog);\n"
    "  [pct(val[i]), pct(self[i]), String(val[i])].forEach(function (t) {\n"
    "    const s = document.createElement('span'); s.className = 'num'; s.textContent = t; row.appendChild(s);\n"
    "  });\n"
    "  const n = document.createElement('span');\n"
    "  n.className = 'name k' + kinds[title[i]];\n"
    "  n.textContent = names[title[i]];\n"
    "  row.appendChild(n);\n"
    "  const box = document.createElement('div');\n"
    "  parentBox.appendChild(row);\n"
    "  parentBox.appendChild(box);\n"
    "  const st = { row: row, box: box, tog: tog, open: false, built: false };\n"
    "  rows.set(i, st);\n"
    "  if (kids) row.addEventListener('click', function () { toggle(i); });\n"
    "  return st;\n"
    "}\n"
    "function toggle(i, open) {\n"
    "  const st = rows.get(i);\n"
    "  if (!st || end[i] <= i + 1) return;\n"
    "  st.open = open === undefined ? !st.open : open;\n"
    "  if (st.open && !st.built) { children(i).forEach(function (c) { makeRow(c, st.box); }); st.built = true; }\n"
    "  st.box.style.display = st.open ? '' : 'none';\n"
    "  st.tog.textContent = st.open ? '\\u25be' : '\\u25b8';\n"
    "}\n"
    "const root = document.getElementById('tree');\n"
    "if (N) { makeRow(0, root); toggle(0, true); }\n"
    "document.getElementById('info').textContent = total + ' ' + P.unit + (P.event ? ' of ' + P.event : '');\n"
    "document.getElementById('expand').addEventListener('click', function () {\n"
    "  for (let i = 0; i < N && end[i] > i + 1;) { toggle(i, true); i = children(i)[0]; }\n"
    "});\n"
    "document.getElementById('collapse').addEventListener('click', function () {\n"
    "  rows.forEach(function (st, i) { if (i) toggle(i, false); });\n"
    "});\n"
    "window.tree = {\n"
    "  nodes: N,\n"
    "  shown: function () {\n"
    "    return Array.from(document.querySelectorAll('.row[data-node]'))\n"
    "      .filter(function (r) { return r.offsetParent !== null; })\n"
    "      .map(function (r) { return r.querySelector('.name').textContent; });\n"
    "  },\n"
    "};\n"
    "})();\n"
    "</script>\n"
    "</body>\n"
    "</html>\n";

const struct html_page tree_page = {
	.head = tree_head,
	.mid = tree_mid,
	.body = tree_body,
	.tail = tree_tail,
};
