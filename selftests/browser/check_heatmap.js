// Opens heatmap pages (report --format heatmap) in headless Chromium and
// uses them as a person does: hover a cell, search a phase's function, click
// a start and an end cell, drag, and checks each range's flame graph and
// command line against the program's own phases and against `perfjava
// report` run with that command. Prints TAP lines. Usage:
//   node check_heatmap.js SPEC.json
// SPEC: [{ file, label, a, b, phases: { a: [FROM, TO], b: [FROM, TO] },
//   min, shot }], the phases' functions a and b and their bounds in
// seconds from the recording's start (the program's truth), the share of
// its phase's cells' count each function has at least (0: an event that
// may have no sample in a phase), shot a PNG path prefix or ""; an entry
// with long: true is the 10-minute page, timed; skip: true is none.
'use strict';
const { execSync } = require('child_process');
const fs = require('fs');
const { ok, open, run, chromiumCpuMs } = require('./browser.js');

const PJ = process.env.PJ_BIN;

function sum(a) { return a.reduce((x, y) => x + y, 0); }
// Cells a..b well inside [from, to) s: two cells, and 50 ms (or the page's
// margin, in s), off each end.
async function inside(page, iv, margin) {
  return page.evaluate(([f, t, g]) => {
    const h = window.heatmap, m = Math.max(2, Math.ceil(Math.max(0.05, g) * 1e9 / h.rowNs));
    return [Math.max(0, h.cellAt(f) + m), Math.min(h.cells - 1, h.cellAt(t) - m)];
  }, [iv[0], iv[1], margin || 0]);
}
// Per cell of a..b: [value, matched by the search].
async function cells(page, r) {
  return page.evaluate(([a, b]) => {
    const out = [];
    for (let c = a; c <= b; c++) out.push([window.heatmap.value(c), window.heatmap.matched(c)]);
    return out;
  }, r);
}
async function search(page, q) {
  await page.fill('#search', q);
  await page.press('#search', 'Enter');
}
async function center(page, c) {
  const r = await page.evaluate((k) => window.heatmap.rectOf(k), c);
  return [r.x + r.w / 2, r.y + r.h / 2];
}
// The canvas pixel at the middle of cell c.
async function pixel(page, c) {
  return page.evaluate((k) => {
    const h = document.getElementById('heat'), b = h.getBoundingClientRect(), r = window.heatmap.rectOf(k);
    const d = h.getContext('2d').getImageData((r.x + r.w / 2 - b.left) * devicePixelRatio,
      (r.y + r.h / 2 - b.top) * devicePixelRatio, 1, 1).data;
    return [d[0], d[1], d[2]];
  }, c);
}
// `perfjava report` of the page's command line: its collapsed total.
function reported(cmd) {
  const out = execSync(cmd.replace(/^perfjava /, PJ + ' ') + ' --format collapsed',
    { encoding: 'utf8', shell: '/bin/sh', maxBuffer: 1 << 28 });
  return sum(out.split('\n').filter(Boolean).map((l) => +l.slice(l.lastIndexOf(' ') + 1)));
}
// The flame graph shown and the command: right phase, same total as report.
async function checkRange(page, t, want, not, how) {
  const got = await page.evaluate(([w, n]) => ({
    want: !!window.flame.rectOf(w), not: !!window.flame.rectOf(n), total: window.flame.total,
    unit: window.heatmap.unit, cmd: window.heatmap.command(), sel: window.heatmap.selected(), text: document.getElementById('rtext').textContent,
  }), [want, not]);
  const m = / --from ([0-9.]+) --to ([0-9.]+)$/.exec(got.cmd);
  const bounds = await page.evaluate(([a, b]) => [a, b + 1].map((c) => (window.heatmap.first + c) * window.heatmap.rowNs / 1e9), got.sel);
  ok(got.want && !got.not, t.label + ': ' + how + ' (' + got.text + '): the flame graph shows ' + want + ', not ' + not, got);
  ok(m && Math.abs(+m[1] - bounds[0]) < 1e-9 && Math.abs(+m[2] - bounds[1]) < 1e-9,
     t.label + ': the command line gives the range\'s --from/--to (' + got.cmd + ')', { got, bounds });
  let rep = -1;
  try { rep = reported(got.cmd); } catch (e) { rep = String(e).split('\n')[0]; }
  ok(rep === got.total, t.label + ': that command reports what the range\'s flame graph shows (' + rep + ' ' + (t.unit || 'samples') + ')', { rep, total: got.total });
}

async function phaseChecks(ctx, t) {
  const { page, st } = await open(ctx, t.file);
  const info = await page.evaluate(() => ({ cells: window.heatmap.cells, rows: window.heatmap.rows, rowNs: window.heatmap.rowNs,
    columns: window.heatmap.columns, total: window.flame.total }));
  console.log('# ' + t.label + ': ' + info.columns + ' columns of ' + info.rows + ' cells of ' + info.rowNs / 1e6 + ' ms, ' + info.total + ' in all');
  ok(info.cells > 0 && info.total > 0, t.label + ': the page draws its cells and the whole flame graph', info);
  if (t.shot) await page.screenshot({ path: t.shot + '-load.png' });
  // Hovering a cell says its time and count.
  const ra = await inside(page, t.phases.a, t.margin), rb = await inside(page, t.phases.b, t.margin);
  const count = (r) => page.evaluate(([a, b]) => { let n = 0; for (let c = a; c <= b; c++) n += window.heatmap.samples(c); return n; }, r);
  const na = ra[1] > ra[0] ? await count(ra) : 0, nb = rb[1] > rb[0] ? await count(rb) : 0;
  if (ra[1] - ra[0] < 4 || rb[1] - rb[0] < 4 || na + nb < 10 || (t.min > 0 && (na < 5 || nb < 5))) {
    ok(true, t.label + ': phase checks # SKIP ' + na + ' and ' + nb + ' samples in the phases\' cells ' + JSON.stringify([ra, rb]) +
      ', too few (load average ' + fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0] + ')');
    await page.close();
    return;
  }
  let xy = await center(page, ra[0]);
  await page.mouse.move(xy[0], xy[1]);
  const tip = await page.textContent('#htip');
  ok(await page.isVisible('#htip') && /^[0-9.]+ s to [0-9.]+ s: [0-9]+ samples/.test(tip), t.label + ': hovering a cell shows its time and count (' + tip + ')', tip);
  // The change: each phase's function only in its own phase's cells.
  const seen = {};
  for (const [name, mine, other] of [[t.a, ra, rb], [t.b, rb, ra]]) {
    await search(page, name);
    const inMine = await cells(page, mine), inOther = await cells(page, other);
    const all = sum(inMine.map((x) => x[0])), share = all ? sum(inMine.map((x) => x[1])) / all : 0;
    const stray = sum(inOther.map((x) => x[1]));
    seen[name] = share;
    console.log('# ' + t.label + ': ' + name + ' in ' + (100 * share).toFixed(1) + '% of its phase\'s cells\' count (' +
      all + ', ' + (all / inMine.length).toFixed(1) + ' a cell), ' + stray + ' in the other phase\'s');
    ok(stray === 0 && (all ? share > 0 && share >= t.min : t.min === 0),
       t.label + ': searching ' + name + ' marks the cells of its phase (' + (100 * share).toFixed(0) + '% of their count), none of the other', { share, stray });
  }
  ok(seen[t.a] > 0 || seen[t.b] > 0, t.label + ': a phase has samples of its function', seen);
  if (t.shot) {
    await search(page, t.a);
    // phase a's cell that the search marks most, phase b's busiest
    const top = async (r, k) => (await cells(page, r)).reduce((m, x, i, all) => (x[k] > all[m][k] ? i : m), 0) + r[0];
    const pa = await pixel(page, await top(ra, 1)), pb = await pixel(page, await top(rb, 0));
    ok(pa[0] > pa[1] + 60 && pa[2] > pa[1] + 60 && !(pb[0] > pb[1] + 60 && pb[2] > pb[1] + 60),
       t.label + ': the search paints phase a\'s cells magenta, not phase b\'s', { pa, pb });
  }
  await page.click('#clear');
  // A click on a start cell and one on an end cell.
  const want = seen[t.a] > 0 ? [t.a, t.b, ra] : [t.b, t.a, rb];
  // three cells around a phase's busiest (a sparse recording, the JDK's
  // own at 20 ms on a loaded machine, has empty thirds of a phase)
  const around = async (r) => {
    let top = r[0], most = -1;
    for (let c = r[0]; c <= r[1]; c++) {
      const n = await page.evaluate((k) => window.heatmap.samples(k), c);
      if (n > most) { most = n; top = c; }
    }
    const lo = Math.max(r[0], Math.min(top - 1, r[1] - 2));
    return [lo, Math.min(r[1], lo + 2)];
  };
  const [a1, a2] = await around(want[2]);
  xy = await center(page, a1);
  await page.mouse.click(xy[0], xy[1]);
  const first = await page.evaluate(() => window.heatmap.selected());
  xy = await center(page, a2);
  await page.mouse.click(xy[0], xy[1]);
  const sel = await page.evaluate(() => window.heatmap.selected());
  ok(first[0] === a1 && first[1] === a1 && sel[0] === a1 && sel[1] === a2, t.label + ': a click selects a start cell, a second one the range to it', { first, sel, a1, a2 });
  await checkRange(page, t, want[0], want[1], 'click, click');
  if (t.shot) {
    await search(page, t.a);
    await page.screenshot({ path: t.shot + '-range.png' });
    await page.click('#clear');
  }
  // A drag over the other phase.
  if (seen[want[1]] > 0) {
    const r = want[2] === ra ? rb : ra;
    const [b1, b2] = await around(r);
    xy = await center(page, b1);
    await page.mouse.move(xy[0], xy[1]);
    await page.mouse.down();
    xy = await center(page, b2);
    await page.mouse.move(xy[0], xy[1], { steps: 4 });
    await page.mouse.up();
    const s2 = await page.evaluate(() => window.heatmap.selected());
    ok(s2[0] === b1 && s2[1] === b2, t.label + ': a drag selects the cells it crosses', { s2, b1, b2 });
    await checkRange(page, t, want[1], want[0], 'drag');
  }
  await page.click('#whole');
  const whole = await page.evaluate(() => [window.flame.total, window.heatmap.command()]);
  ok(whole[0] === info.total && !/--from/.test(whole[1]), t.label + ': "Whole recording" shows every cell again', whole);
  ok(st.errors.length === 0 && st.requests.length === 0, t.label + ': no console errors, no request leaves the page', st);
  await page.close();
}

// Opens file: its size (MB), load time and Chromium's CPU time for it (ms).
async function timed(ctx, file) {
  const cpu = chromiumCpuMs();
  const r = await open(ctx, file);
  r.cpuMs = chromiumCpuMs() - cpu;
  r.mb = (fs.statSync(file).size / 1e6).toFixed(1);
  return r;
}

async function longChecks(ctx, t) {
  const flame = await timed(ctx, t.flame);
  await flame.page.close();
  const { page, st, cpuMs, mb } = await timed(ctx, t.file);
  const info = await page.evaluate(() => ({ columns: window.heatmap.columns, rows: window.heatmap.rows,
    rowNs: window.heatmap.rowNs, ready: Math.round(window.heatmap.readyMs), total: window.flame.total }));
  const c = await page.evaluate(() => window.heatmap.cellAt(401.5));
  const xy = await center(page, c);
  const t0 = Date.now();
  await page.mouse.click(xy[0], xy[1]);
  const clickMs = Date.now() - t0;
  const one = await page.evaluate((k) => [window.flame.total, window.heatmap.value(k), window.heatmap.selected()], c);
  console.log('# ' + t.label + ': heatmap ' + mb + ' MB, ' + info.total + ' samples: load ' + st.loadMs +
    ' ms (page built ' + info.ready + ' ms after its start), Chromium CPU ' + cpuMs + ' ms, first click ' + clickMs +
    ' ms; its flame graph page ' + flame.mb + ' MB: load ' + flame.st.loadMs + ' ms, Chromium CPU ' + flame.cpuMs +
    ' ms; load average ' + fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  ok(info.columns === 600 && info.rows === 10 && info.rowNs === 1e8, t.label + ': 600 columns of 1 s, 10 cells of 100 ms', info);
  ok(one[0] === one[1] && one[1] > 0 && one[2][0] === c && one[2][1] === c, t.label + ': a click shows that cell\'s flame graph', one);
  if (t.shot) await page.screenshot({ path: t.shot + '.png' });
  ok(st.errors.length === 0 && st.requests.length === 0, t.label + ': no console errors, no requests', st);
  await page.close();
}

run(async (ctx) => {
  const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  for (const t of spec) {
    if (t.skip) continue;
    try {
      if (t.long) await longChecks(ctx, t);
      else await phaseChecks(ctx, t);
    } catch (e) {
      ok(false, t.label + ': the checks ran to the end: ' + String(e).split('\n')[0]);
    }
  }
});
