// The call tree of `const P` (report/calltree.c): nodes in depth-first order
// as [depth, title, count] triples, hottest children first. Shared by the
// flame graph and the tree page; each adds what only it needs.
const names = P.names, kinds = P.kinds, raw = P.nodes, N = raw.length / 3;
const depth = new Int32Array(N), title = new Int32Array(N);
const parent = new Int32Array(N), end = new Int32Array(N); // end: past the subtree
const val = new Float64Array(N), self = new Float64Array(N);
(function build() {
  const path = [];
  let top = 0; // path[0..top) holds the ancestors of node i
  for (let i = 0; i < N; i++) {
    const d = raw[3 * i];
    depth[i] = d; title[i] = raw[3 * i + 1]; val[i] = raw[3 * i + 2];
    while (top > d) end[path[--top]] = i;
    parent[i] = d ? path[d - 1] : -1;
    if (d) self[parent[i]] -= val[i];
    self[i] += val[i];
    path[top++] = i;
  }
  while (top) end[path[--top]] = N;
})();
const total = N ? val[0] : 0;
function pct(v, t) { return t ? (100 * v / t).toFixed(2) : '0.00'; }

// Search: which titles match the regex q; null for an empty q, undefined
// for a bad regex. The share counts a match's subtree once.
function matchTitles(q) {
  if (!q) return null;
  let re;
  try { re = new RegExp(q); } catch (e) { return undefined; }
  const m = new Uint8Array(names.length);
  for (let t = 0; t < names.length; t++) m[t] = re.test(names[t]) ? 1 : 0;
  return m;
}
function matchedShare(m) {
  let sum = 0;
  for (let i = 0; i < N;) {
    if (m[title[i]]) { sum += val[i]; i = end[i]; } else i++;
  }
  return pct(sum, total);
}
const searchInput = document.getElementById('search');
const matchedOut = document.getElementById('matched');
// Wires the search bar to apply(m): m as matchTitles gives it.
function searchBar(apply) {
  function search(q) {
    const m = matchTitles(q);
    if (m === undefined) { matchedOut.textContent = 'Invalid regex'; return; }
    matchedOut.textContent = m ? 'Matched: ' + matchedShare(m) + '%' : '';
    apply(m);
  }
  searchInput.addEventListener('keydown', function (e) { if (e.key === 'Enter') search(searchInput.value); });
  document.getElementById('go').addEventListener('click', function () { search(searchInput.value); });
  document.getElementById('clear').addEventListener('click', function () { searchInput.value = ''; search(''); });
  return search;
}
