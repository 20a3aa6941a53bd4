// What the browser checks share: TAP lines, headless Chromium (playwright-
// core driving /usr/bin/chromium) in a profile of its own, and a page opened
// from a file with its console errors and every request it tries (all
// refused: a report page needs none).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

let failed = 0;
function ok(cond, desc, detail) {
  console.log((cond ? 'ok' : 'not ok') + ' - ' + desc);
  if (!cond) { failed++; if (detail !== undefined) console.log('# got: ' + JSON.stringify(detail)); }
  return cond;
}

async function open(ctx, file) {
  const page = await ctx.newPage();
  const url = 'file://' + path.resolve(file);
  const st = { errors: [], requests: [] };
  page.on('console', (m) => { if (m.type() === 'error') st.errors.push(m.text()); });
  page.on('pageerror', (e) => st.errors.push(String(e)));
  page.on('request', (r) => { if (r.url() !== url) st.requests.push(r.url()); });
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    st.requests.push(route.request().url());
    return route.abort();
  });
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  st.loadMs = Date.now() - t0;
  return { page, st };
}

// The CPU time (ms) Chromium's processes have used: the browser started
// with the profile dir of run() and its descendants (renderers, GPU, ...).
let profileDir = null;
function chromiumCpuMs() {
  const stat = (p) => {
    const s = fs.readFileSync('/proc/' + p + '/stat', 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' '); // from field 3, state
  };
  const kids = {};
  let root = null, ms = 0;
  for (const p of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(p)) continue;
    try {
      (kids[stat(p)[1]] = kids[stat(p)[1]] || []).push(p);
      const cmd = fs.readFileSync('/proc/' + p + '/cmdline', 'utf8');
      if (profileDir && cmd.includes(profileDir) && !cmd.includes('--type=')) root = p;
    } catch (e) { /* gone meanwhile */ }
  }
  const todo = root ? [root] : [];
  while (todo.length) {
    const p = todo.pop();
    try { const f = stat(p); ms += (+f[11] + +f[12]) * 1000 / 100; } catch (e) { /* gone */ }
    (kids[p] || []).forEach((k) => todo.push(k));
  }
  return ms; // clock ticks of 10 ms (USER_HZ 100)
}

// Runs checks(ctx) in a fresh browser; exits 1 when a check failed.
async function run(checks) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pj-chromium-'));
  let ctx;
  profileDir = dir;
  try {
    ctx = await chromium.launchPersistentContext(dir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
             '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1200, height: 800 },
    });
    await checks(ctx);
  } catch (e) {
    ok(false, 'browser checks ran to the end: ' + String(e).split('\n')[0]);
  } finally {
    if (ctx) await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

module.exports = { ok, open, run, chromiumCpuMs };
