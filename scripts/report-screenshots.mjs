#!/usr/bin/env node
// Screenshots of a run's report.html for docs/ (PNG), taken in Debian's Chromium with playwright-core, and the page's
// weight and time to interactive. Usage: node scripts/report-screenshots.mjs [reports/<run-id>/report.html] [outDir]
// (default: the newest run under reports/, and docs/). TOOLGAUGE_CHROMIUM names another browser binary.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const newestRun = () => {
  const runs = readdirSync('reports')
    .filter((d) => /^\d{4}-\d\d-\d\dT/.test(d))
    .sort();
  const last = runs.at(-1);
  if (!last) throw new Error('no run under reports/: run `npm run eval` first');
  return join('reports', last, 'report.html');
};
const page = resolve(process.argv[2] ?? newestRun());
const outDir = resolve(process.argv[3] ?? 'docs');
const executablePath = process.env.TOOLGAUGE_CHROMIUM || '/usr/bin/chromium';

const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tg-shots-')), {
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  viewport: { width: 1400, height: 900 },
});
try {
  const tab = await ctx.newPage();
  await tab.goto(pathToFileURL(page).href);
  await tab.waitForSelector('body[data-ready="1"]');
  // Time to interactive as the page measures it: navigation start to the case list rendered and wired.
  const ms = await tab.evaluate(() => Number(document.body.dataset.readyMs));
  const height = await tab.evaluate(() => document.documentElement.scrollHeight);
  console.log(
    `${page}: ${(statSync(page).size / 1e6).toFixed(2)} MB, interactive after ${Math.round(ms)} ms, ${height} px tall`,
  );

  await tab.locator('#s-grader').selectOption('correct-arguments');
  await tab.locator('#strategies').screenshot({ path: join(outDir, 'report-strategies.png') });
  await tab
    .locator('section[data-grader-matrix="correct-arguments"]')
    .screenshot({ path: join(outDir, 'report-matrix.png') });
  const cell = tab.locator(
    'section[data-grader-matrix="correct-arguments"] a.cell[data-renderer="names-only"][data-provider="sim:guesser"]',
  );
  if (await cell.count()) {
    await cell.click();
    await tab.locator('#f-outcome').selectOption('fail');
    // an English case: the screenshots' browser may lack CJK fonts
    await tab.locator('#f-q').fill('tag:en');
    if ((await tab.locator('#count').innerText()) === '0') await tab.locator('#f-q').fill('');
    await tab.locator('#case-list li').first().locator('button.open').click();
    await tab.locator('#case-list li .body').first().waitFor();
    await tab.locator('#cases').screenshot({ path: join(outDir, 'report-cases.png') });
    await tab.locator('#case-list li').first().locator('button.across').click();
    await tab.locator('#case-view .cv-col').first().waitFor();
    await tab.locator('#case-view').screenshot({ path: join(outDir, 'report-case-view.png') });
  }
  // why strategies fail (the catalog persona's worst strategy: its tools taken for others, descriptions side by side)
  const why = tab.locator('#why .provider[data-provider="sim:selector"] details.why-cell[open]');
  if (await why.count()) {
    await why
      .locator('table.confusions')
      .first()
      .screenshot({ path: join(outDir, 'report-why.png') });
  }
  const sweeps = tab.locator('#sweeps .provider[data-provider="sim:selector"]');
  if (await sweeps.count()) await sweeps.screenshot({ path: join(outDir, 'report-sweeps.png') });
  console.log(`screenshots in ${outDir}`);
} finally {
  await ctx.close();
}
