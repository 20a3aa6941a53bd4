// The flame graph on a canvas (report/flame.c): frames placed left to right
// in their parent, one row per depth; zoom, invert, search, tooltips.
const diff = Array.isArray(P.base), unit = P.unit;
const left = new Float64Array(N), levels = [];
let maxDepth = 0;
(function place() {
  const cursor = [0];
  for (let i = 0; i < N; i++) {
    const d = depth[i];
    left[i] = d ? cursor[d] : 0;
    if (d) cursor[d] += val[i];
    cursor[d + 1] = left[i];
    if (d > maxDepth) maxDepth = d;
    (levels[d] || (levels[d] = [])).push(i);
  }
})();

// async-profiler's palette: [base, random red, green, blue] by frame kind.
const palette = [
  [0xb2e1b2, 20, 20, 20], // interpreted Java
  [0x50e150, 30, 30, 30], // JIT-compiled Java
  [0x50cccc, 30, 30, 30], // inlined Java
  [0xe15a5a, 30, 40, 40], // native
  [0xc8c83c, 30, 30, 10], // C++ (and JVM code)
  [0xe17d00, 30, 30, 0],  // kernel
  [0xcce880, 20, 20, 20], // C1-compiled Java
  [0xc0c0c0, 10, 10, 10], // labels: all, threads
];
const kindNames = ['interpreted', 'JIT', 'inlined', 'native', 'C++', 'kernel', 'C1', 'label'];
function hash(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h >>> 0;
}
function rgb(r, g, b) { return 'rgb(' + r + ',' + g + ',' + b + ')'; }
const titleColor = names.map(function (n, t) {
  const p = palette[kinds[t]] || palette[3], h = hash(n);
  const v = (h & 0xffff) / 0xffff;
  return rgb(Math.min(255, (p[0] >> 16) + Math.round(v * p[1])),
             Math.min(255, ((p[0] >> 8) & 0xff) + Math.round(v * p[2])),
             Math.min(255, (p[0] & 0xff) + Math.round(v * p[3])));
});
let diffColor = null, baseTotal = P.baseTotal || 0;
function share(v, t) { return t ? v / t : 0; }
if (diff) {
  let maxd = 0;
  const dl = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    dl[i] = share(val[i], total) - share(P.base[i], baseTotal);
    if (i && Math.abs(dl[i]) > maxd) maxd = Math.abs(dl[i]);
  }
  diffColor = new Array(N);
  for (let i = 0; i < N; i++) {
    const a = maxd ? Math.min(1, Math.abs(dl[i]) / maxd) : 0;
    const c = Math.round(235 * (1 - a));
    diffColor[i] = dl[i] > 0 ? rgb(255, c, c) : dl[i] < 0 ? rgb(c, c, 255) : rgb(235, 235, 235);
  }
}

const canvas = document.getElementById('canvas'), ctx = canvas.getContext('2d');
const tip = document.getElementById('tip'), status = document.getElementById('status');
const ROW = 16;
let W = 0, H = 0, inverted = !!P.inverted, zoom = 0, matched = null;
let drawnHighlighted = [], drawnCount = 0;

function layout() {
  W = Math.max(100, document.getElementById('wrap').clientWidth);
  H = (maxDepth + 1) * ROW;
  const dpr = window.devicePixelRatio || 1;
  canvas.style.width = W + 'px'; canvas.style.height = H + 'px';
  canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
}
function yOf(d) { return inverted ? d * ROW : (maxDepth - d) * ROW; }
function firstAt(lv, x) { // first index in lv whose frame ends after x
  let lo = 0, hi = lv.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1, i = lv[m];
    if (left[i] + val[i] <= x) lo = m + 1; else hi = m;
  }
  return lo;
}
function box(i) { // [x, w] of node i in the current zoom, clipped
  const zl = left[zoom], zw = val[zoom] || 1, s = W / zw;
  let x = (left[i] - zl) * s, w = val[i] * s;
  if (x < 0) { w += x; x = 0; }
  if (x + w > W) w = W - x;
  return [x, w];
}
function draw() {
  ctx.clearRect(0, 0, W, H);
  ctx.font = '12px Verdana, sans-serif';
  ctx.textBaseline = 'middle';
  const zl = left[zoom], zw = val[zoom] || 1, zr = zl + zw, s = W / zw;
  const hl = new Set();
  drawnCount = 0;
  for (let d = 0; d < levels.length; d++) {
    const lv = levels[d], y = yOf(d);
    for (let k = firstAt(lv, zl); k < lv.length; k++) {
      const i = lv[k];
      if (left[i] >= zr) break;
      const b = box(i), x = b[0], w = b[1];
      if (w < 0.5) continue;
      const hit = matched && matched[title[i]];
      ctx.fillStyle = hit ? '#ee00ee' : diff ? diffColor[i] : titleColor[title[i]];
      ctx.fillRect(x, y, w > 2 ? w - 1 : w, ROW - 1);
      if (hit) hl.add(names[title[i]]);
      drawnCount++;
      if (w > 24) {
        const name = names[title[i]], fit = Math.floor((w - 6) / 7);
        ctx.fillStyle = '#000';
        ctx.fillText(name.length > fit ? name.slice(0, Math.max(0, fit - 2)) + '..' : name,
                     x + 3, y + ROW / 2, w - 6);
      }
    }
  }
  drawnHighlighted = Array.from(hl).sort();
  document.getElementById('zoomed').textContent = zoom ? 'Zoomed: ' + names[title[zoom]] : '';
}
function at(px, py) { // node under canvas coordinates, or -1
  const row = Math.floor(py / ROW), d = inverted ? row : maxDepth - row;
  if (d < 0 || d >= levels.length) return -1;
  const zl = left[zoom], zw = val[zoom] || 1, pos = zl + px * zw / W;
  const lv = levels[d], k = firstAt(lv, pos);
  if (k >= lv.length) return -1;
  const i = lv[k];
  return left[i] <= pos && pos < left[i] + val[i] && pos < zl + zw ? i : -1;
}
function describe(i) {
  let s = names[title[i]] + '\n' + val[i] + ' ' + unit + ' (' + pct(val[i], total) + '%)' +
    ', self ' + self[i] + ' (' + pct(self[i], total) + '%)';
  if (diff) {
    const o = P.base[i], d = 100 * (share(val[i], total) - share(o, baseTotal));
    s += '\nbaseline ' + o + ' (' + pct(o, baseTotal) + '%), change ' + (d >= 0 ? '+' : '') + d.toFixed(2) + '%';
  }
  return s + '\n' + (kindNames[kinds[title[i]]] || '');
}
let raf = 0;
function redraw() { if (!raf) raf = requestAnimationFrame(function () { raf = 0; draw(); }); }
canvas.addEventListener('mousemove', function (e) {
  const r = canvas.getBoundingClientRect(), i = at(e.clientX - r.left, e.clientY - r.top);
  if (i < 0) { tip.style.display = 'none'; status.textContent = '\u00a0'; return; }
  tip.textContent = describe(i);
  tip.style.display = 'block';
  const tx = Math.min(e.clientX + 12, window.innerWidth - tip.offsetWidth - 4);
  tip.style.left = Math.max(0, tx) + 'px';
  tip.style.top = (e.clientY + 16) + 'px';
  status.textContent = describe(i).split('\n').slice(0, 2).join(': ');
});
canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
canvas.addEventListener('click', function (e) {
  const r = canvas.getBoundingClientRect(), i = at(e.clientX - r.left, e.clientY - r.top);
  if (i >= 0) { zoom = i; draw(); }
});
document.getElementById('reset').addEventListener('click', function () { zoom = 0; draw(); });
// The root and the widest frames in view: a deep graph drawn root at the
// bottom is taller than the window, so the page scrolls down to its root
// (and up to it when inverted) instead of opening on the deepest rows.
function showRoot() {
  const doc = document.documentElement;
  window.scrollTo(0, inverted ? 0 : Math.max(0, doc.scrollHeight - window.innerHeight));
}
document.getElementById('invert').addEventListener('click', function () {
  inverted = !inverted; draw(); showRoot();
});
const search = searchBar(function (m) { matched = m; draw(); });
// One handler, not one more for each graph the heatmap page draws.
window.onresize = function () { layout(); redraw(); };
const legend = document.getElementById('legend');
if (diff) {
  legend.textContent = 'red: share grew, blue: share shrank (of ' + total + ' vs ' + baseTotal + ' ' + unit + ')';
} else {
  const seen = new Set(kinds);
  palette.forEach(function (p, k) {
    if (!seen.has(k)) return;
    const e = document.createElement('span');
    e.style.background = '#' + p[0].toString(16).padStart(6, '0');
    e.textContent = kindNames[k];
    legend.appendChild(e);
  });
}
layout();
draw();
showRoot();
// For scripts and tests: what is shown, where a frame is drawn.
window.flame = {
  nodes: N,
  total: total,
  inverted: function () { return inverted; },
  drawn: function () { return drawnCount; },
  zoomed: function () { return names[title[zoom]]; },
  highlighted: function () { return drawnHighlighted.slice(); },
  matched: function () { return matchedOut.textContent; },
  search: search,
  rectOf: function (name) {
    const r = canvas.getBoundingClientRect();
    for (let i = 0; i < N; i++) {
      if (names[title[i]] !== name) continue;
      const b = box(i), zl = left[zoom], zw = val[zoom] || 1;
      if (left[i] + val[i] <= zl || left[i] >= zl + zw || b[1] < 1) continue;
      return { x: r.left + b[0], y: r.top + yOf(depth[i]), w: b[1], h: ROW - 1, width: W };
    }
    return null;
  },
};
