import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRun } from '../run-log/load-run.js';
import { passingCases, writeSyntheticRun } from './testing/synthetic-run.js';
import { writeReports } from './write-reports.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-html-'));
let browser: BrowserContext;

/**
 * The browser test drives an installed Chromium (Debian's package: no browser download). Without one it skips,
 * saying why, unless TOOLGAUGE_REQUIRE_BROWSER=1 (set by .ci/run, which installs Chromium): then a missing browser
 * is a failure, not a quiet skip. TOOLGAUGE_CHROMIUM points at another binary.
 */
const CHROMIUM = process.env.TOOLGAUGE_CHROMIUM || '/usr/bin/chromium';
const NO_CHROMIUM = `no Chromium at ${CHROMIUM} (install it: apt-get install chromium, or set TOOLGAUGE_CHROMIUM)`;
const hasChromium = existsSync(CHROMIUM);

beforeAll(async () => {
  if (!hasChromium) return;
  // A fresh --user-data-dir, as Playwright wants it: the persistent-context argument.
  browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tg-chromium-')), {
    executablePath: CHROMIUM,
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
  it('shows the matrix, opens a drill-down by click, renders model text as text, filters', async (ctx) => {
    if (!hasChromium) {
      if (process.env.TOOLGAUGE_REQUIRE_BROWSER === '1') throw new Error(`${NO_CHROMIUM}; TOOLGAUGE_REQUIRE_BROWSER=1`);
      // The default reporter hides skip notes: say it where `npm test` shows it.
      console.warn(`report.html browser test skipped: ${NO_CHROMIUM}`);
      ctx.skip(NO_CHROMIUM);
    }
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

describe('without Chromium', () => {
  /** Runs the browser test above in a child vitest, with TOOLGAUGE_CHROMIUM naming no file. */
  const runBrowserTestWithout = (env: Record<string, string>) => {
    const out = join(mkdtempSync(join(tmpdir(), 'tg-nochromium-')), 'vitest.json');
    const child = spawnSync(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        'src/report/html.test.ts',
        '-t',
        'opens a drill-down by click',
        '--reporter=json',
        `--outputFile=${out}`,
      ],
      { env: { ...process.env, TOOLGAUGE_CHROMIUM: join(dir, 'no-such-chromium'), ...env }, encoding: 'utf8' },
    );
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
    };
    const test = report.testResults[0]?.assertionResults.find((t) => t.title.includes('opens a drill-down'));
    return { status: child.status, test };
  };

  it('the browser test skips, saying why; with TOOLGAUGE_REQUIRE_BROWSER=1 it fails instead', () => {
    const skipped = runBrowserTestWithout({ TOOLGAUGE_REQUIRE_BROWSER: '' });
    expect(skipped.status).toBe(0);
    expect(skipped.test?.status).toBe('skipped');
    const required = runBrowserTestWithout({ TOOLGAUGE_REQUIRE_BROWSER: '1' });
    expect(required.status).toBe(1);
    expect(required.test?.status).toBe('failed');
    expect(required.test?.failureMessages.join('\n')).toContain('no Chromium at');
    expect(required.test?.failureMessages.join('\n')).toContain('apt-get install chromium');
  });
});
