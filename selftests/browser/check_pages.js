// Opens the report's HTML pages in headless Chromium (playwright-core driving
// /usr/bin/chromium) and checks them against the known-content profile of
// selftests/unit/test_report.c. Prints TAP lines. Usage:
//   node check_pages.js FLAME.html DIFF.html TREE.html DEEP.html [BIG.html]
'use strict';
const { ok, open, run } = require('./browser.js');

const [flameFile, diffFile, treeFile, deepFile, bigFile] = process.argv.slice(2);

async function centerOf(page, obj, name) {
  return page.evaluate(([o, n]) => window[o].rectOf(n), [obj, name]);
}

async function flameChecks(ctx) {
  const { page, st } = await open(ctx, flameFile);
  ok(await page.evaluate(() => window.flame && window.flame.drawn() === 10),
     'flame: renders the 10 frames of the known profile', await page.evaluate(() => window.flame && window.flame.drawn()));
  const main = await centerOf(page, 'flame', 'App.main');
  ok(main && Math.abs(main.w - main.width * 9 / 12) < 2, 'flame: App.main is 9/12 of the width', main);
  // Tooltip on hover: samples and percent.
  const inner = await centerOf(page, 'flame', 'App.inner');
  await page.mouse.move(inner.x + inner.w / 2, inner.y + inner.h / 2);
  const tip = await page.textContent('#tip');
  ok(/^App\.inner\n6 samples \(50\.00%\)/.test(tip) && await page.isVisible('#tip'),
     'flame: tooltip shows samples and percent', tip);
  // A click zooms: App.main then spans the canvas, App.work is 6/9 of it.
  await page.mouse.click(main.x + main.w / 2, main.y + main.h / 2);
  const zoomed = await page.evaluate(() => window.flame.zoomed());
  const m2 = await centerOf(page, 'flame', 'App.main');
  const w2 = await centerOf(page, 'flame', 'App.work');
  ok(zoomed === 'App.main' && Math.abs(m2.w - m2.width) < 2 && Math.abs(w2.w - m2.width * 6 / 9) < 2,
     'flame: a click zooms into the frame', { zoomed, m2, w2 });
  ok(await page.textContent('#zoomed') === 'Zoomed: App.main', 'flame: zoom shown in the bar');
  await page.click('#reset');
  ok(await page.evaluate(() => window.flame.zoomed()) === 'all', 'flame: reset shows everything');
  // Search: the right frames are highlighted and the matched share is right.
  await page.fill('#search', 'App\\.(work|c1)');
  await page.press('#search', 'Enter');
  let hl = await page.evaluate(() => window.flame.highlighted());
  let matched = await page.textContent('#matched');
  ok(JSON.stringify(hl) === '["App.c1","App.work"]' && matched === 'Matched: 75.00%',
     'flame: search highlights App.work and App.c1, matched 75.00%', { hl, matched });
  const px = await page.evaluate(([x, y]) => {
    const c = document.getElementById('canvas'), r = c.getBoundingClientRect();
    const d = c.getContext('2d').getImageData((x - r.left) * devicePixelRatio, (y - r.top) * devicePixelRatio, 1, 1).data;
    return [d[0], d[1], d[2]];
  }, [w2.x + 2, w2.y + 2]);
  ok(px[0] === 0xee && px[1] === 0 && px[2] === 0xee, 'flame: a match is painted magenta', px);
  await page.fill('#search', 'start_thread|App');
  await page.press('#search', 'Enter');
  matched = await page.textContent('#matched');
  ok(matched === 'Matched: 83.33%', 'flame: nested matches count once (83.33%)', matched);
  await page.fill('#search', '([');
  await page.press('#search', 'Enter');
  ok(await page.textContent('#matched') === 'Invalid regex', 'flame: a bad regex says so');
  await page.click('#clear');
  const before = (await centerOf(page, 'flame', 'all')).y;
  await page.click('#invert');
  const after = (await centerOf(page, 'flame', 'all')).y;
  ok(after < before, 'flame: invert draws an icicle (root on top)', { before, after });
  // Responsive: the canvas follows the window width.
  await page.setViewportSize({ width: 700, height: 600 });
  await page.waitForFunction(() => Math.abs(window.flame.rectOf('all').width - (document.body.clientWidth - 20)) < 2, null, { timeout: 5000 }).then(() => ok(true, 'flame: redraws at the new window width'), () => ok(false, 'flame: redraws at the new window width'));
  ok(st.errors.length === 0, 'flame: no console errors', st.errors);
  ok(st.requests.length === 0, 'flame: no request leaves the page', st.requests);
  await page.close();
}

async function diffChecks(ctx) {
  const { page, st } = await open(ctx, diffFile);
  const color = async (name) => {
    const r = await centerOf(page, 'flame', name);
    return page.evaluate(([x, y]) => {
      const c = document.getElementById('canvas'), b = c.getBoundingClientRect();
      const d = c.getContext('2d').getImageData((x - b.left) * devicePixelRatio, (y - b.top) * devicePixelRatio, 1, 1).data;
      return [d[0], d[1], d[2]];
    }, [r.x + 2, r.y + 2]);
  };
  const grew = await color('App.inner'), shrank = await color('App.c1');
  ok(grew[0] === 255 && grew[2] < 255, 'diff: a frame whose share grew is red', grew);
  ok(shrank[2] === 255 && shrank[0] < 255, 'diff: a frame whose share shrank is blue', shrank);
  const inner = await centerOf(page, 'flame', 'App.inner');
  await page.mouse.move(inner.x + inner.w / 2, inner.y + inner.h / 2);
  const tip = await page.textContent('#tip');
  ok(/baseline 2 \(20\.00%\), change \+30\.00%/.test(tip), 'diff: tooltip gives baseline and change', tip);
  ok(st.errors.length === 0 && st.requests.length === 0, 'diff: no console errors, no requests', st);
  await page.close();
}

async function treeChecks(ctx) {
  const { page, st } = await open(ctx, treeFile);
  let shown = await page.evaluate(() => window.tree.shown());
  ok(JSON.stringify(shown) === '["all","start_thread","[unknown]"]', 'tree: opens with the roots shown', shown);
  await page.click('.row[data-node] >> text=start_thread');
  shown = await page.evaluate(() => window.tree.shown());
  ok(JSON.stringify(shown) === '["all","start_thread","App.main","[libfoo.so]","[unknown]"]',
     'tree: a click expands a node, hottest child first', shown);
  const row = await page.textContent('.row[data-node]:has-text("App.main")');
  ok(/75\.00%\s*0\.00%\s*9\s*App\.main/.test(row), 'tree: inclusive and self percentages', row);
  await page.click('.row[data-node] >> text=start_thread');
  shown = await page.evaluate(() => window.tree.shown());
  ok(shown.length === 3, 'tree: a second click collapses it', shown);
  await page.click('#expand');
  shown = await page.evaluate(() => window.tree.shown());
  ok(shown.includes('App.inner'), 'tree: expand the hottest path', shown);
  // Search: the matching frames are marked, the paths to them opened, and
  // the share is the flame graph's.
  await page.click('#collapse');
  await page.fill('#search', 'App\\.(work|c1)');
  await page.press('#search', 'Enter');
  const hl = await page.evaluate(() => window.tree.highlighted());
  const matched = await page.textContent('#matched');
  ok(JSON.stringify(hl.slice().sort()) === '["App.c1","App.work"]' && matched === 'Matched: 75.00%',
     'tree: search marks App.work and App.c1 and opens their paths, matched 75.00%', { hl, matched });
  await page.fill('#search', '([');
  await page.press('#search', 'Enter');
  ok(await page.textContent('#matched') === 'Invalid regex', 'tree: a bad regex says so');
  await page.click('#clear');
  ok((await page.evaluate(() => window.tree.highlighted())).length === 0 && await page.textContent('#matched') === '',
     'tree: clear removes the marks');
  ok(st.errors.length === 0, 'tree: no console errors', st.errors);
  ok(st.requests.length === 0, 'tree: no request leaves the page', st.requests);
  await page.close();
}

// A graph 1503 frames deep (Recurse.java's shape), root at the bottom: the
// page opens on its root and widest frames, not on the empty top rows.
async function deepChecks(ctx) {
  const { page, st } = await open(ctx, deepFile);
  const inView = async () => {
    const vh = await page.evaluate(() => window.innerHeight);
    const bar = await page.evaluate(() => document.getElementById('bar').getBoundingClientRect().bottom);
    const r = await Promise.all(['all', 'start_thread', 'java.lang.Thread.run', 'thread_native_entry']
      .map((n) => centerOf(page, 'flame', n)));
    return { ok: r.every((b) => b && b.y >= bar && b.y + b.h <= vh), r, vh, bar };
  };
  const depth = await page.evaluate(() => window.flame.rectOf('all').y - window.flame.rectOf('Recurse.lambda$main$0').y);
  let v = await inView();
  ok(depth > 16 * 2 && v.ok, 'deep flame graph: opens scrolled to the root and the widest frames', v);
  await page.click('#invert');
  v = await inView();
  ok(v.ok, 'deep flame graph: inverted, the root (now on top) is in view', v);
  await page.click('#invert');
  v = await inView();
  ok(v.ok, 'deep flame graph: back to root at the bottom, scrolled to it again', v);
  const leaf = await page.evaluate(() => {
    const c = document.getElementById('canvas').getBoundingClientRect();
    return c.top;
  });
  ok(leaf < 0, 'deep flame graph: the deepest rows are above, scrolled out of view', leaf);
  ok(st.errors.length === 0 && st.requests.length === 0, 'deep flame graph: no console errors, no requests', st);
  await page.close();
}

async function bigChecks(ctx) {
  const { page, st } = await open(ctx, bigFile);
  const n = await page.evaluate(() => window.flame.nodes);
  let t0 = Date.now();
  await page.fill('#search', 'f_1');
  await page.press('#search', 'Enter');
  await page.waitForFunction(() => /Matched/.test(document.getElementById('matched').textContent));
  const searchMs = Date.now() - t0;
  const all = await page.evaluate(() => window.flame.rectOf('all'));
  t0 = Date.now();
  await page.mouse.click(all.x + all.w / 3, all.y - 8); // a frame on the row above the root
  await page.waitForFunction(() => window.flame.zoomed() !== 'all', null, { timeout: 5000 }).catch(() => {});
  const clickMs = Date.now() - t0;
  const zoomed = await page.evaluate(() => window.flame.zoomed());
  console.log('# big flame graph: ' + n + ' nodes, load ' + st.loadMs + ' ms, search ' + searchMs + ' ms, click ' + clickMs + ' ms');
  ok(n > 100000 && st.loadMs < 15000 && searchMs < 5000, 'big flame graph (' + n + ' nodes) loads and searches in bounded time');
  ok(zoomed !== 'all' && clickMs < 5000, 'big flame graph: a click zooms (' + zoomed + ')');
  ok(st.errors.length === 0 && st.requests.length === 0, 'big flame graph: no console errors, no requests', st);
  await page.close();
}

run(async (ctx) => {
  await flameChecks(ctx);
  await diffChecks(ctx);
  await treeChecks(ctx);
  await deepChecks(ctx);
  if (bigFile) await bigChecks(ctx);
});
