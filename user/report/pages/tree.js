// The call tree as rows that expand on click (report/tree.c), built lazily:
// a node's children become rows when it is first opened. A search marks the
// matching frames and opens the paths to them.
const SEARCH_OPEN_MAX = 500; // paths opened by one search, at most
function children(i) { const c = []; for (let j = i + 1; j < end[i]; j = end[j]) c.push(j); return c; }
function share(v) { return pct(v, total) + '%'; }
const rows = new Map(); // node -> {row, box, tog, open, built}
let matched = null;
function makeRow(i, parentBox) {
  const row = document.createElement('div'), kids = end[i] > i + 1;
  row.className = matched && matched[title[i]] ? 'row hit' : 'row';
  row.dataset.node = i;
  row.style.paddingLeft = (depth[i] * 14) + 'px';
  const tog = document.createElement('span');
  tog.className = 'tog';
  tog.textContent = kids ? '\u25b8' : '';
  row.appendChild(tog);
  [share(val[i]), share(self[i]), String(val[i])].forEach(function (t) {
    const s = document.createElement('span'); s.className = 'num'; s.textContent = t; row.appendChild(s);
  });
  const n = document.createElement('span');
  n.className = 'name k' + kinds[title[i]];
  n.textContent = names[title[i]];
  row.appendChild(n);
  const box = document.createElement('div');
  parentBox.appendChild(row);
  parentBox.appendChild(box);
  const st = { row: row, box: box, tog: tog, open: false, built: false };
  rows.set(i, st);
  if (kids) row.addEventListener('click', function () { toggle(i); });
  return st;
}
function toggle(i, open) {
  const st = rows.get(i);
  if (!st || end[i] <= i + 1) return;
  st.open = open === undefined ? !st.open : open;
  if (st.open && !st.built) { children(i).forEach(function (c) { makeRow(c, st.box); }); st.built = true; }
  st.box.style.display = st.open ? '' : 'none';
  st.tog.textContent = st.open ? '\u25be' : '\u25b8';
}
function openPathTo(i) { // opens every ancestor of i, root first
  const up = [];
  for (let p = parent[i]; p >= 0; p = parent[p]) up.push(p);
  for (let k = up.length - 1; k >= 0; k--) toggle(up[k], true);
}
const root = document.getElementById('tree');
if (N) { makeRow(0, root); toggle(0, true); }
const info = document.getElementById('info');
const what = total + ' ' + P.unit + (P.event ? ' of ' + P.event : '');
info.textContent = what;
const search = searchBar(function (m) {
  matched = m;
  rows.forEach(function (st, i) { st.row.classList.toggle('hit', !!(m && m[title[i]])); });
  let opened = 0, hits = 0;
  if (m) {
    for (let i = 0; i < N; i++) {
      if (!m[title[i]]) continue;
      hits++;
      if (opened < SEARCH_OPEN_MAX) { openPathTo(i); opened++; }
    }
  }
  info.textContent = what + (hits > opened ? ' (' + opened + ' of ' + hits + ' matches opened)' : '');
});
document.getElementById('expand').addEventListener('click', function () {
  for (let i = 0; i < N && end[i] > i + 1;) { toggle(i, true); i = children(i)[0]; }
});
document.getElementById('collapse').addEventListener('click', function () {
  rows.forEach(function (st, i) { if (i) toggle(i, false); });
});
// For scripts and tests: the rows shown and the frames marked by a search.
window.tree = {
  nodes: N,
  search: search,
  shown: function () {
    return Array.from(document.querySelectorAll('.row[data-node]'))
      .filter(function (r) { return r.offsetParent !== null; })
      .map(function (r) { return r.querySelector('.name').textContent; });
  },
  highlighted: function () {
    return Array.from(document.querySelectorAll('.row.hit[data-node]'))
      .filter(function (r) { return r.offsetParent !== null; })
      .map(function (r) { return r.querySelector('.name').textContent; });
  },
};
