// The heatmap (report/heatmap.c). `const H` holds, for each cell of H.rowNs
// ns (H.rows cells down a column, then the next column), the nodes of the
// call tree `const P` its samples' stacks end at, with their counts. A
// cell's colour is its count; selecting a range (a click on a start cell
// then one on an end cell, or a drag) draws the range's flame graph below
// with the flame graph page's own code and prints the report command of
// the same --from/--to.

// The flame graph page (common.js, flame.js), run again for each range.
function flameGraph(P) {
@COMMON_JS@
@FLAME_JS@
}

const NC = H.ncells, ROWS = H.rows, NCOLS = Math.ceil(NC / ROWS);
const TN = P.nodes.length / 3;
const tParent = new Int32Array(TN);
(function parents() { // nodes are in depth-first order
  const path = [];
  for (let i = 0; i < TN; i++) {
    const d = P.nodes[3 * i];
    tParent[i] = d ? path[d - 1] : -1;
    path[d] = i;
  }
})();

// Numbers as report/heatmap.c's put_var writes them: base 46, lowest
// digit first, each a character of ' '..'~' but '"', '\\', '<'; the first
// 46 of them end a number. reader(s) reads the numbers of s in turn.
const digitOf = new Uint8Array(128);
(function () {
  for (let c = 32, n = 0; c < 127; c++) if (c !== 34 && c !== 60 && c !== 92) digitOf[c] = n++;
})();
function reader(s) {
  let p = 0;
  const n = s.length;
  return {
    more: function () { return p < n; },
    next: function () {
      let v = 0, mul = 1, d;
      do {
        d = digitOf[s.charCodeAt(p++) & 127];
        if (d < 46) return v + d * mul;
        v += (d - 46) * mul;
        mul *= 46;
      } while (p < n);
      return v;
    },
  };
}
// Each cell's samples and count (H.sums), read at once: they draw the map.
const cellSamples = new Float64Array(NC), cellVal = new Float64Array(NC);
(function sums() {
  let c = 0;
  for (let i = 0; i < H.sums.length; i++) {
    const r = reader(H.sums[i]);
    while (r.more() && c < NC) { cellSamples[c] = r.next(); cellVal[c++] = r.next(); }
  }
})();
// Each cell's (node, count) pairs (H.cells), read when a range or a search
// first needs them: cell c's are pairNode/pairVal[cellStart[c]..cellStart[c + 1]).
const cellStart = new Uint32Array(NC + 1);
let pairNode = null, pairVal = null;
function pairs() {
  if (pairNode) return;
  pairNode = new Int32Array(H.pairs);
  pairVal = new Float64Array(H.pairs);
  let c = 0, k = 0;
  for (let i = 0; i < H.cells.length; i++) {
    const r = reader(H.cells[i]);
    while (r.more() && c < NC) {
      const np = r.next();
      let node = 0;
      cellStart[c++] = k;
      for (let j = 0; j < np && k < H.pairs; j++, k++) {
        const x = r.next();
        node += Math.floor(x / 2);
        pairNode[k] = node < TN ? node : 0;
        pairVal[k] = x % 2 ? 2 + r.next() : 1;
      }
    }
  }
  for (; c <= NC; c++) cellStart[c] = k;
}
let maxVal = 0;
for (let c = 0; c < NC; c++) if (cellVal[c] > maxVal) maxVal = cellVal[c];

// Times: ns from time 0 (what --from/--to count from), written exactly.
function nsOf(c) { return (H.first + c) * H.rowNs; }
function secs(ns) {
  const s = Math.floor(ns / 1e9), f = ns - s * 1e9;
  return f ? s + '.' + String(f).padStart(9, '0').replace(/0+$/, '') : String(s);
}
function span(ns, of) { // a length, short, in the unit of of (default ns)
  const m = of || ns;
  const u = m >= 1e9 ? [1e9, 's'] : m >= 1e6 ? [1e6, 'ms'] : m >= 1e3 ? [1e3, 'us'] : [1, 'ns'];
  return Number((ns / u[0]).toFixed(3)) + ' ' + u[1];
}
function amount(v) {
  if (P.unit === 'ns') return span(v);
  if (P.unit === 'bytes') {
    const u = v >= 1 << 30 ? [1 << 30, 'GiB'] : v >= 1 << 20 ? [1 << 20, 'MiB'] : v >= 1024 ? [1024, 'KiB'] : [1, 'bytes'];
    return Number((v / u[0]).toFixed(1)) + ' ' + u[1];
  }
  return v + ' ' + P.unit;
}
function share(v, t) { return t ? (100 * v / t).toFixed(1) : '0.0'; }

// The flame graph of cells a..b: their counts at the nodes they end at,
// added up to the root; the nodes without any left out.
function rangeNodes(a, b) {
  if (a === 0 && b === NC - 1) return P.nodes; // the whole tree, as it is
  pairs();
  const acc = new Float64Array(TN), nodes = [];
  for (let k = cellStart[a]; k < cellStart[b + 1]; k++) acc[pairNode[k]] += pairVal[k];
  for (let i = TN - 1; i > 0; i--) acc[tParent[i]] += acc[i];
  for (let i = 0; i < TN; i++) if (acc[i] > 0 || !i) nodes.push(P.nodes[3 * i], P.nodes[3 * i + 1], acc[i]);
  return nodes;
}
function showFlame(nodes) {
  // New elements: the listeners of the last graph go with the old ones.
  ['canvas', 'reset', 'invert', 'search', 'go', 'clear'].forEach(function (id) {
    const e = document.getElementById(id);
    e.replaceWith(e.cloneNode(true));
  });
  document.getElementById('legend').textContent = '';
  const inverted = window.flame ? window.flame.inverted() : true; // an icicle under the heatmap
  flameGraph(Object.assign({}, P, { nodes: nodes, inverted: inverted }));
  const q = document.getElementById('search').value;
  if (q) window.flame.search(q);
}

const heat = document.getElementById('heat'), hctx = heat.getContext('2d');
const hwrap = document.getElementById('hwrap'), hinfo = document.getElementById('hinfo');
const htip = document.getElementById('htip'), rtext = document.getElementById('rtext');
const cmdOut = document.getElementById('cmd');
const LM = 64, TM = 2, BM = 18; // margins: the rows' labels, top, the time axis
let CW = 4, CH = 16, selA = 0, selB = NC - 1, anchor = -1, drag = -1, matchVal = null;

function hlayout() {
  const avail = Math.max(200, hwrap.clientWidth) - LM - 8;
  CW = Math.max(1, Math.min(48, avail / Math.max(1, NCOLS))); // px, not whole
  CH = Math.max(3, Math.min(24, Math.round(160 / ROWS)));
  const w = LM + xOf(NCOLS) + 8, h = TM + ROWS * CH + BM, dpr = window.devicePixelRatio || 1;
  heat.style.width = w + 'px'; heat.style.height = h + 'px';
  heat.width = Math.round(w * dpr); heat.height = Math.round(h * dpr);
  hctx.setTransform(dpr, 0, 0, dpr, 0, 0);
}
function xOf(col) { return Math.round(col * CW); } // columns start on whole pixels
function cellXY(c) {
  const col = Math.floor(c / ROWS);
  return [LM + xOf(col), TM + (c - col * ROWS) * CH, xOf(col + 1) - xOf(col)];
}
// Colour ramps, 256 steps each: counts (pale yellow to dark red), a
// search's matches (magenta), the rest of the cells while searching (grey).
function ramp(stops) {
  const out = [];
  for (let i = 0; i < 256; i++) {
    const f = i / 255 * (stops.length - 1), k = Math.min(stops.length - 2, Math.floor(f)), t = f - k;
    const c = [0, 1, 2].map(function (j) { return Math.round(stops[k][j] + (stops[k + 1][j] - stops[k][j]) * t); });
    out.push('rgb(' + c.join(',') + ')');
  }
  return out;
}
const HEAT = ramp([[255, 245, 200], [253, 190, 90], [240, 110, 40], [200, 30, 20], [110, 0, 10]]);
const MATCH = ramp([[240, 150, 240], [238, 0, 238], [120, 0, 120]]);
const REST = ramp([[236, 236, 236], [160, 160, 160]]);
const EMPTY = '#f7f7f7';
function level(v) { return Math.min(255, Math.round(255 * v / (maxVal || 1))); }
function cellColor(c) {
  if (!cellVal[c]) return EMPTY;
  if (!matchVal) return HEAT[level(cellVal[c])];
  return matchVal[c] ? MATCH[level(matchVal[c])] : REST[level(cellVal[c])];
}
function hdraw() {
  const w = LM + xOf(NCOLS) + 8, h = TM + ROWS * CH + BM;
  hctx.clearRect(0, 0, w, h);
  const whole = selA === 0 && selB === NC - 1;
  for (let c = 0; c < NC; c++) {
    const xy = cellXY(c);
    hctx.fillStyle = cellColor(c);
    hctx.fillRect(xy[0], xy[1], xy[2] > 3 ? xy[2] - 1 : xy[2], CH > 3 ? CH - 1 : CH);
    if (!whole && (c < selA || c > selB)) {
      hctx.fillStyle = 'rgba(255,255,255,0.75)';
      hctx.fillRect(xy[0], xy[1], xy[2], CH);
    }
  }
  if (anchor >= 0) {
    const xy = cellXY(anchor);
    hctx.strokeStyle = '#0050ff'; hctx.lineWidth = 2;
    hctx.strokeRect(xy[0] + 1, xy[1] + 1, Math.max(2, xy[2] - 2), Math.max(2, CH - 2));
  }
  hctx.fillStyle = '#000';
  hctx.font = '11px sans-serif';
  hctx.textBaseline = 'middle';
  hctx.textAlign = 'right';
  const rstep = Math.ceil(14 / CH);
  for (let r = 0; r < ROWS; r += rstep) hctx.fillText('+' + span(r * H.rowNs, ROWS * H.rowNs), LM - 4, TM + r * CH + CH / 2);
  hctx.textAlign = 'left';
  hctx.textBaseline = 'top';
  let cstep = 1;
  for (const m of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]) { cstep = m; if (m * CW >= 64) break; }
  for (let col = 0; col < NCOLS; col += cstep) {
    const x = LM + xOf(col);
    hctx.fillRect(x, TM + ROWS * CH, 1, 4);
    hctx.fillText(secs(nsOf(col * ROWS)) + ' s', x + 2, TM + ROWS * CH + 4);
  }
}
function cellAt(e) {
  const r = heat.getBoundingClientRect(), x = e.clientX - r.left - LM, y = e.clientY - r.top - TM;
  let col = Math.floor(x / CW);
  const row = Math.floor(y / CH);
  if (col > 0 && x < xOf(col)) col--;
  else if (x >= xOf(col + 1)) col++;
  if (x < 0 || y < 0 || col >= NCOLS || row >= ROWS) return -1;
  const c = col * ROWS + row;
  return c < NC ? c : -1;
}
function describe(c) {
  let s = secs(nsOf(c)) + ' s to ' + secs(nsOf(c + 1)) + ' s: ' + cellSamples[c] + ' samples';
  if (H.weighted) s += ', ' + amount(cellVal[c]);
  if (matchVal) s += ', matched ' + share(matchVal[c], cellVal[c]) + '%';
  return s;
}
function summary() {
  return NCOLS + (NCOLS === 1 ? ' column of ' : ' columns of ') + span(ROWS * H.rowNs) + ', ' + ROWS + ' cells of ' + span(H.rowNs) +
    ' down each; the darkest: ' + (H.weighted ? amount(maxVal) : maxVal + ' samples') +
    '. Click a start cell and an end cell, or drag, for their flame graph.';
}

// Selects cells a..b (time order): the flame graph, the text, the command.
function select(a, b) {
  selA = Math.max(0, Math.min(a, b)); selB = Math.min(NC - 1, Math.max(a, b));
  const whole = selA === 0 && selB === NC - 1;
  let n = 0, v = 0;
  for (let c = selA; c <= selB; c++) { n += cellSamples[c]; v += cellVal[c]; }
  showFlame(rangeNodes(selA, selB));
  rtext.textContent = (whole ? 'Whole recording' : secs(nsOf(selA)) + ' s to ' + secs(nsOf(selB + 1)) + ' s') +
    ': ' + n + ' samples' + (H.weighted ? ', ' + amount(v) : '') + (anchor >= 0 ? ' (now click an end cell)' : '');
  cmdOut.textContent = H.cmd + (whole ? H.range : ' --from ' + secs(nsOf(selA)) + ' --to ' + secs(nsOf(selB + 1)));
  hdraw();
}
function heatSearch(q) {
  let re = null;
  try { re = q ? new RegExp(q) : null; } catch (e) { re = null; }
  if (!re) { matchVal = null; hdraw(); return; }
  pairs();
  const titleHit = P.names.map(function (n) { return re.test(n); }), hit = new Uint8Array(TN);
  for (let i = 0; i < TN; i++) hit[i] = titleHit[P.nodes[3 * i + 1]] || (i && hit[tParent[i]]) ? 1 : 0;
  matchVal = new Float64Array(NC);
  for (let c = 0; c < NC; c++)
    for (let k = cellStart[c]; k < cellStart[c + 1]; k++) if (hit[pairNode[k]]) matchVal[c] += pairVal[k];
  hdraw();
}
// The search bar belongs to each new graph; the heatmap listens above it.
document.addEventListener('keydown', function (e) {
  if (e.target && e.target.id === 'search' && e.key === 'Enter') heatSearch(e.target.value);
});
document.addEventListener('click', function (e) {
  const id = e.target && e.target.id;
  if (id === 'go') heatSearch(document.getElementById('search').value);
  else if (id === 'clear') heatSearch('');
});
heat.addEventListener('mousedown', function (e) { drag = cellAt(e); e.preventDefault(); });
heat.addEventListener('mousemove', function (e) {
  const c = cellAt(e);
  if (c < 0) { htip.style.display = 'none'; hinfo.textContent = summary(); return; }
  htip.textContent = describe(c);
  htip.style.display = 'block';
  htip.style.left = Math.max(0, Math.min(e.clientX + 12, window.innerWidth - htip.offsetWidth - 4)) + 'px';
  htip.style.top = (e.clientY + 16) + 'px';
  hinfo.textContent = describe(c);
});
heat.addEventListener('mouseleave', function () { htip.style.display = 'none'; hinfo.textContent = summary(); });
window.addEventListener('mouseup', function (e) {
  const from = drag, c = cellAt(e);
  drag = -1;
  if (from < 0) return;
  if (c >= 0 && c !== from) { anchor = -1; select(from, c); return; } // a drag
  if (c < 0) return;
  if (anchor < 0) { anchor = c; select(c, c); return; } // a start cell
  const a = anchor;
  anchor = -1;
  select(a, c);
});
document.getElementById('whole').addEventListener('click', function () { anchor = -1; select(0, NC - 1); });
document.getElementById('copy').addEventListener('click', function () {
  const sel = window.getSelection(), r = document.createRange();
  r.selectNodeContents(cmdOut);
  sel.removeAllRanges();
  sel.addRange(r);
  if (navigator.clipboard) navigator.clipboard.writeText(cmdOut.textContent).catch(function () {});
});
window.addEventListener('resize', function () { hlayout(); hdraw(); });
hlayout();
hinfo.textContent = NC ? summary() : 'No samples.';
if (NC) select(0, NC - 1);
// The pairs once the page is up, so that the first selection is quick.
window.addEventListener('load', function () { setTimeout(pairs, 100); });
// For scripts and tests: the cells, where one is drawn, the selection.
window.heatmap = {
  cells: NC, rows: ROWS, columns: NCOLS, rowNs: H.rowNs, first: H.first, unit: P.unit,
  value: function (c) { return cellVal[c]; },
  samples: function (c) { return cellSamples[c]; },
  matched: function (c) { return matchVal ? matchVal[c] : 0; },
  cellAt: function (s) { return Math.floor(s * 1e9 / H.rowNs) - H.first; }, // of a time, s from time 0
  rectOf: function (c) {
    const r = heat.getBoundingClientRect(), xy = cellXY(c);
    return { x: r.left + xy[0], y: r.top + xy[1], w: xy[2], h: CH };
  },
  selected: function () { return [selA, selB]; },
  command: function () { return cmdOut.textContent; },
  select: select,
  readyMs: performance.now(), // from the start of the page's load
};
