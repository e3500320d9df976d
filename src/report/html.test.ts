import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { closeReportBrowser, openReport } from '../../tests/helpers/report-browser.js';
import { passingCases, writeSyntheticRun } from '../../tests/helpers/synthetic-run.js';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { loadRun } from '../run-log/load-run.js';
import { caseRecords } from '../run-log/reader.js';
import type { CaseRecord } from '../run-log/schema.js';
import { writeReports } from './write-reports.js';

const tempDir = useTempDirs();

const dir = tempDir('tg-html-');
afterAll(closeReportBrowser);

const XSS_RENDERER = '<img src=x onerror=alert(7)>';
const GRADERS = ['parseable', 'correct-arguments'];

async function writeRun(maxHtmlCases?: number): Promise<string> {
  const runDir = writeSyntheticRun(dir, `run-${maxHtmlCases ?? 'all'}`, [
    ...passingCases(10, 9, GRADERS, { renderer: 'full-details' }),
    ...passingCases(10, 6, GRADERS, { renderer: 'names-only' }),
    ...passingCases(10, 5, GRADERS, { renderer: XSS_RENDERER }),
    ...passingCases(60, 55, GRADERS, { renderer: 'full-details', provider: 'sim:guesser' }),
    ...passingCases(10, 3, GRADERS, { renderer: 'names-only', provider: 'sim:guesser' }),
    {
      case: 'xss',
      renderer: 'names-only',
      pass: { parseable: false },
      reply: 'Sure! <script>alert(1)</script><img src=x onerror="alert(2)">',
      reason: 'no call found; reply was <b onmouseover=alert(3)>bold</b>',
    },
    {
      case: 'boom',
      renderer: 'names-only',
      pass: {},
      error: { code: 'PROVIDER_HTTP', message: '500 <img src=x onerror=alert(4)>' },
    },
  ]);
  // tags as the runner records them from the suite (the report reads them from the records, never from a suite file)
  const TAGS: Record<string, string[]> = { 'case-003': ['spreadsheet', 'zh'], xss: ['<svg onload=alert(8)>'] };
  const log = join(runDir, 'run.jsonl');
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .map((line) => {
      if (!line) return line;
      const r = JSON.parse(line);
      return r.type === 'case' && TAGS[r.case] ? JSON.stringify({ ...r, tags: TAGS[r.case] }) : line;
    });
  writeFileSync(log, lines.join('\n'));
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

/** A run's report.html (or a `file:` URL of it with its address fragment) in Chromium; the test skips without one. */
async function open(runDir: string, ctx: { skip: (note: string) => void }, url = join(runDir, 'report.html')) {
  const report = await openReport(url, ctx);
  if (!report) throw new Error('unreachable: the test was skipped');
  return report;
}

/** Every key the case list shows for the current filters, paging through to the end. */
async function listedKeys(page: Page): Promise<string[]> {
  const keys: string[] = [];
  for (;;) {
    keys.push(
      ...(await page
        .locator('#case-list > li.case')
        .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-key') ?? ''))),
    );
    if (await page.locator('#next').isDisabled()) return keys;
    await page.locator('#next').click();
  }
}

describe('report.html in headless Chromium', () => {
  it('a matrix cell lists exactly its cases, paged, with a true count', async (ctx) => {
    const runDir = await writeRun();
    const { page, clean } = await open(runDir, ctx);
    for (const [r, p] of [
      ['names-only', 'sim:guesser'],
      ['full-details', 'sim:guesser'],
      [XSS_RENDERER, 'sim:oracle'],
    ] as const) {
      const cell = page.locator(
        `section[data-grader-matrix="correct-arguments"] a.cell[data-renderer="${r.replace(/"/g, '\\"')}"][data-provider="${p}"]`,
      );
      const n = Number(await cell.getAttribute('data-n'));
      expect(n).toBeGreaterThan(0);
      await cell.click();
      expect(await page.locator('#count').innerText()).toBe(String(n));
      const keys = await listedKeys(page);
      expect(keys).toHaveLength(n);
      expect(new Set(keys).size).toBe(n);
      for (const k of keys) expect(k).toContain(`|${r}|${p}|`);
    }
    expect(await page.locator('#count').innerText()).toBe('10');
    // 60 cases: two pages, all counted
    await page
      .locator(
        'section[data-grader-matrix="parseable"] a.cell[data-renderer="full-details"][data-provider="sim:guesser"]',
      )
      .click();
    expect(await page.locator('#count').innerText()).toBe('60');
    expect(await page.locator('#case-list > li.case').count()).toBe(50);
    // outcome filter: failing ones of that cell
    await page.locator('#f-outcome').selectOption('fail');
    expect(await page.locator('#count').innerText()).toBe('5');
    // the filters are in the address: opening it shows the same list
    const link = page.url();
    expect(link).toContain('#cases?');
    const again = await open(runDir, ctx, link);
    expect(await again.page.locator('#count').innerText()).toBe('5');
    expect(await again.page.locator('#f-outcome').inputValue()).toBe('fail');
    expect(await again.page.locator('#f-renderer').inputValue()).toBe('full-details');
    await again.clean();
    await again.page.close();
    await clean();
    await page.close();
  });

  it('search finds a case by id and by tag; details render model text as text; errors stand apart', async (ctx) => {
    const runDir = await writeRun();
    const { page, clean } = await open(runDir, ctx);
    const all = await page.locator('#count').innerText();
    expect(all).toBe('102');
    // the list's order: failing cases first, then errored ones, then passing; each by suite and case (numbers in
    // numeric order), then renderer and provider in the run's order, then repeat
    const listed = await listedKeys(page);
    const run = await loadRun(runDir);
    const records: CaseRecord[] = [];
    for await (const r of caseRecords(run.runLog)) records.push(r);
    const renderers = run.aggregate.header.strategies.map((x) => x.label);
    const providers = run.aggregate.header.providers.map((x) => x.label);
    const group = (r: CaseRecord) => (r.grades.some((g) => !g.pass) ? 0 : r.error ? 1 : 2);
    const name = new Intl.Collator('en', { numeric: true }).compare;
    const expected = records
      .sort(
        (a, b) =>
          group(a) - group(b) ||
          name(a.suite, b.suite) ||
          name(a.case, b.case) ||
          renderers.indexOf(a.renderer) - renderers.indexOf(b.renderer) ||
          providers.indexOf(a.provider) - providers.indexOf(b.provider) ||
          a.repeat - b.repeat,
      )
      .map((r) => r.key);
    expect(listed).toEqual(expected);
    expect(await page.locator('#cases-note').innerText()).toContain('failing cases first, then errored ones');
    await page.locator('#f-q').fill('case-003');
    expect(await page.locator('#count').innerText()).toBe('5');
    for (const k of await listedKeys(page)) expect(k).toContain('/case-003|');
    await page.locator('#f-q').fill('tag:spreadsheet');
    expect(await page.locator('#count').innerText()).toBe('5');
    await page.locator('#f-q').fill('tag:<svg onload=alert(8)>');
    expect(await page.locator('#count').innerText()).toBe('1');
    const xss = page.locator('li.case', { hasText: 'excel/xss|names-only|sim:oracle|0' });
    expect(await xss.innerText()).toContain('<svg onload=alert(8)>');
    await xss.locator('button.open').click();
    const reply = xss.locator('pre.reply');
    await reply.waitFor();
    expect(await reply.innerText()).toBe('Sure! <script>alert(1)</script><img src=x onerror="alert(2)">');
    expect(await xss.locator('ul.grades').innerText()).toContain('<b onmouseover=alert(3)>bold</b>');
    expect(await xss.locator('pre.prompt').innerText()).toContain('You can call tools. (names-only)');
    // the same case in the case view
    await xss.locator('button.across').click();
    const cvReply = page.locator('#case-view pre.cv-reply');
    await cvReply.waitFor();
    expect(await cvReply.innerText()).toBe('Sure! <script>alert(1)</script><img src=x onerror="alert(2)">');
    expect(await page.locator('#case-view ul.grades').innerText()).toContain('<b onmouseover=alert(3)>bold</b>');

    // errors: their own section and outcome, never failures
    const errors = page.locator('#errors table.errors');
    expect(await errors.innerText()).toContain('PROVIDER_HTTP');
    expect(await errors.innerText()).toContain('500 <img src=x onerror=alert(4)>');
    await page.locator('#f-q').fill('');
    await page.locator('#f-outcome').selectOption('error');
    expect(await page.locator('#count').innerText()).toBe('1');
    await page.locator('#f-outcome').selectOption('fail');
    expect(await listedKeys(page)).not.toContain('excel/boom|names-only|sim:oracle|0');
    await clean();
    await page.close();
  });

  it('the case view shows every strategy of a provider side by side, with each request and a diff', async (ctx) => {
    const runDir = await writeRun();
    const { page, clean } = await open(runDir, ctx);
    await page.locator('#f-q').fill('case-003|names-only|sim:oracle');
    expect(await page.locator('#count').innerText()).toBe('1');
    await page.locator('#case-list li.case button.across').click();
    const cols = page.locator('#case-view .cv-col');
    await cols.first().waitFor();
    expect(await cols.count()).toBe(3);
    for (const r of ['full-details', 'names-only', XSS_RENDERER]) {
      const col = page.locator('#case-view .cv-col').filter({ has: page.locator('h3', { hasText: r }) });
      expect(await col.locator('pre.cv-request').innerText()).toContain(`You can call tools. (${r})`);
    }
    // diff against the first strategy: the other columns show the changed system line
    const diffs = page.locator('#case-view pre.diff');
    expect(await diffs.count()).toBe(2);
    expect(await diffs.first().locator('.del').innerText()).toContain('You can call tools. (full-details)');
    await page.locator('#cv-base').selectOption({ label: 'names-only' });
    expect(await page.locator('#case-view .cv-col[data-renderer="names-only"] pre.diff').count()).toBe(0);
    await clean();
    await page.close();
  });

  it('the trade-off chart plots the aggregates of run.json, per provider and grader', async (ctx) => {
    const runDir = await writeRun();
    const runJson = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as {
      cells: {
        renderer: string;
        provider: string;
        promptTokensMean: number;
        graders: Record<string, { rate: number; pass: number; n: number }>;
      }[];
    };
    const { page, clean } = await open(runDir, ctx);
    for (const grader of GRADERS) {
      await page.locator('#s-grader').selectOption(grader);
      for (const provider of ['sim:oracle', 'sim:guesser']) {
        const pts = page.locator(
          `#strategies .provider[data-provider="${provider}"] .sc[data-grader="${grader}"] g.pt`,
        );
        expect(await pts.first().isVisible()).toBe(true);
        const shown = await pts.evaluateAll((gs) =>
          gs.map((g) => ({
            renderer: g.getAttribute('data-renderer'),
            rate: Number(g.getAttribute('data-rate')),
            tokens: Number(g.getAttribute('data-tokens')),
            n: Number(g.getAttribute('data-n')),
          })),
        );
        const expected = runJson.cells
          .filter((c) => c.provider === provider && c.graders[grader])
          .map((c) => ({
            renderer: c.renderer,
            rate: c.graders[grader]?.rate,
            tokens: c.promptTokensMean,
            n: c.graders[grader]?.n,
          }));
        expect(shown).toEqual(expected);
      }
    }
    // the paired table: names-only against the guesser's best
    await page.locator('#s-grader').selectOption('correct-arguments');
    const table = page.locator(
      '#strategies .provider[data-provider="sim:guesser"] .sc[data-grader="correct-arguments"] table',
    );
    expect(await table.locator('tr.best').innerText()).toContain('full-details');
    expect(await table.locator('tr[data-renderer="names-only"]').innerText()).toMatch(/−\d/);
    await clean();
    await page.close();
  });

  it('lists every case even when only some details are embedded, and says which', async (ctx) => {
    const runDir = await writeRun(5);
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('Details (transcripts) are embedded for 5 of them');
    const { page, clean } = await open(runDir, ctx);
    expect(await page.locator('#count').innerText()).toBe('102');
    await page.locator('#f-outcome').selectOption('pass');
    await page.locator('#case-list li.case button.open').first().click();
    expect(await page.locator('#case-list li.case').first().innerText()).toContain('not embedded');
    await clean();
    await page.close();
  });
});

describe('without Chromium', () => {
  /** Runs the browser test above in a child vitest, with TOOLGAUGE_CHROMIUM naming no file. */
  const runBrowserTestWithout = (env: Record<string, string>) => {
    const out = join(tempDir('tg-nochromium-'), 'vitest.json');
    const child = spawnSync(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        'src/report/html.test.ts',
        '-t',
        'a matrix cell lists exactly its cases',
        '--reporter=json',
        `--outputFile=${out}`,
      ],
      { env: { ...process.env, TOOLGAUGE_CHROMIUM: join(dir, 'no-such-chromium'), ...env }, encoding: 'utf8' },
    );
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
    };
    const test = report.testResults[0]?.assertionResults.find((t) => t.title.includes('a matrix cell lists exactly'));
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
