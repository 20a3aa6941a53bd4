// Load time of HTML pages in headless Chromium (playwright-core driving
// /usr/bin/chromium): from navigation to the end of the load event, which
// both perfjava's and async-profiler's flame graphs reach after their first
// full draw. Prints "name median_ms min_ms" per page. Usage:
//   node page_load.js RUNS NAME=FILE...
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const runs = parseInt(process.argv[2], 10) || 7;
const pages = process.argv.slice(3).map((a) => a.split('='));

(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pj-chromium-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1200, height: 800 },
  });
  try {
    for (const [name, file] of pages) {
      const times = [];
      for (let r = 0; r < runs + 1; r++) {
        const page = await ctx.newPage();
        await page.goto('file://' + path.resolve(file), { waitUntil: 'load' });
        const ms = await page.evaluate(() => {
          const t = performance.getEntriesByType('navigation')[0];
          return t.loadEventEnd - t.startTime;
        });
        if (r) times.push(ms); // the first run warms the browser up
        await page.close();
      }
      times.sort((a, b) => a - b);
      console.log(name + ' ' + times[times.length >> 1].toFixed(0) + ' ' + times[0].toFixed(0));
    }
  } finally {
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
})();
