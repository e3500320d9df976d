import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRun } from './load-run.js';
import { passingCases, writeSyntheticRun } from './testing/synthetic-run.js';
import { writeReports } from './write-reports.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-html-'));
let browser: BrowserContext;

beforeAll(async () => {
  // A fresh --user-data-dir, as Playwright wants it: the persistent-context argument.
  browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tg-chromium-')), {
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

async function writeRun(maxHtmlCases?: number): Promise<string> {
  const runDir = writeSyntheticRun(dir, `run-${maxHtmlCases ?? 'all'}`, [
    ...passingCases(10, 9, ['parseable', 'correct-arguments']),
    ...passingCases(10, 6, ['parseable', 'correct-arguments'], { provider: 'sim:guesser' }),
    {
      case: 'xss',
      renderer: 'names-only',
      pass: { parseable: false },
      reply: 'Sure! <script>alert(1)</script><img src=x onerror="alert(2)">',
      reason: 'no call found; reply was <b onmouseover=alert(3)>bold</b>',
    },
    { case: 'boom', renderer: 'names-only', pass: {}, error: { code: 'PROVIDER_HTTP', message: '500 <oops>' } },
  ]);
  const run = await loadRun(runDir);
  await writeReports({
    runDir,
    runLog: run.runLog,
    displayDir: runDir,
    aggregate: run.aggregate,
    interrupted: false,
    comparison: null,
    ...(maxHtmlCases ? { maxHtmlCases } : {}),
  });
  return runDir;
}

describe('report.html in headless Chromium', () => {
  it('shows the matrix, opens a drill-down by click, renders model text as text, filters', async () => {
    const runDir = await writeRun();
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script>alert/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//); // self-contained: nothing to fetch
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(runDir, 'report.html')).href);

    const matrix = page.locator('section.grader[data-grader="parseable"] table.matrix');
    await expect.poll(() => matrix.isVisible()).toBe(true);
    const row = matrix.locator('tr[data-renderer-row="full-details"]');
    expect(await row.locator('td').nth(0).innerText()).toContain('90%');
    expect(await row.locator('td').nth(1).innerText()).toContain('60%');
    expect(await matrix.locator('th').allInnerTexts()).toEqual(
      expect.arrayContaining(['full-details', 'names-only', 'sim:oracle', 'sim:guesser']),
    );

    const xss = page.locator('details.case', { hasText: 'excel/xss|names-only|sim:oracle|0' });
    expect(await xss.locator('pre.reply').isVisible()).toBe(false);
    await xss.locator('summary').click();
    expect(await xss.getAttribute('open')).not.toBeNull();
    const reply = xss.locator('pre.reply');
    expect(await reply.isVisible()).toBe(true);
    expect(await reply.innerText()).toBe('Sure! <script>alert(1)</script><img src=x onerror="alert(2)">');
    expect(await xss.locator('ul.grades').innerText()).toContain('<b onmouseover=alert(3)>bold</b>');
    expect(await xss.locator('pre.prompt').innerText()).toContain('You can call tools. (names-only)');
    expect(await page.locator('details.case script, details.case img, details.case b[onmouseover]').count()).toBe(0);

    // Filters: failing only, then one provider.
    const visible = () => page.locator('details.case:not([hidden])').count();
    expect(await visible()).toBe(22);
    await page.locator('#f-failing').check();
    expect(await visible()).toBe(1 + 4 + 2); // 1 failing in oracle cell, 4 in guesser, the xss case, the error
    await page.locator('#f-provider').selectOption('sim:guesser');
    expect(await visible()).toBe(4);
    await page.locator('#f-grader').selectOption('correct-arguments');
    expect(await page.locator('section.grader[data-grader="parseable"]').isVisible()).toBe(false);
    expect(await page.locator('section.grader[data-grader="correct-arguments"]').isVisible()).toBe(true);

    await page.waitForTimeout(100);
    expect(dialogs).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    await page.close();
  });

  it('caps the embedded drill-downs, failing cases first, and says so', async () => {
    const runDir = await writeRun(5);
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(html.match(/<details class="case"/g)).toHaveLength(5);
    expect(html).toContain('capped at 5 (failing cases first: 5 of 7 failing embedded)');
    expect(html).not.toContain('data-failing="0"');
  });
});
