import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Grade } from '../src/contracts/grade.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { readRecords, runDirFrom } from './cli-helpers.js';
import { reportData } from './helpers/report-data.js';
import { CLI_WORDS, runCliAnywhere } from './run-cli-anywhere.js';

/*
 * Scripted conversations through the real CLI and real MCP servers: the bundled economist server in-process, and the
 * same server as a stdio process (`serve mcp economist`, one per case). One eval run is checked for the conversation,
 * the state it leaves, the two graders' verdicts on two valid paths, isolation between concurrent cases; then regrade
 * and replay of that run.
 */

const yamlList = (words: string[]) => `[${words.map((w) => JSON.stringify(w)).join(', ')}]`;

/** Two messages: the second has a call path (two single sets) and another valid path (one batch set). */
const conversation = (id: string, extraFacts = '') => `
  - id: ${id}
    turns:
      - prompt: Set the income tax rate to 0.3.
        expect:
          calls:
            - { tool: set_parameter, args: { parameter_name: [income_tax_rate], value: [0.3] } }
      - prompt: Good. Now set the VAT rate to 0.2 and the corporate tax rate to 0.2, one after the other.
        expect:
          order: sequence
          calls:
            - { tool: set_parameter, args: { parameter_name: [vat_rate], value: [0.2] } }
            - { tool: set_parameter, args: { parameter_name: [corporate_tax_rate], value: [0.2] } }
          alternatives:
            - - { tool: batch_set_parameters, args: { parameters: [{ vat_rate: 0.2, corporate_tax_rate: 0.2 }] } }
    expect:
      state:
        - { path: [parameters, income_tax_rate], equals: 0.3 }
        - { path: [parameters], subset: { vat_rate: 0.2, corporate_tax_rate: 0.2 } }
        - { path: [parameters, minimum_wage], equals: 1500 }${extraFacts}
`;

/** Cases that each set the minimum wage to their own value: run concurrently, each must see only its own write. */
const leakCases = [1600, 1700, 1800, 1900, 2000, 2100]
  .map(
    (wage) => `
  - id: wage-${wage}
    turns:
      - prompt: What is the minimum wage now?
        expect:
          calls: [{ tool: get_parameter, args: { parameter_name: [minimum_wage] } }]
          answer_mentions: ['1500']
      - prompt: Set it to ${wage}.
        expect:
          calls: [{ tool: set_parameter, args: { parameter_name: [minimum_wage], value: [${wage}] } }]
    expect:
      state:
        - { path: [parameters, minimum_wage], equals: ${wage} }
        - { path: [parameters, income_tax_rate], equals: 0.45 }`,
  )
  .join('\n');

describe('scripted conversations through the CLI (in-process and stdio servers)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-multi-turn-'));
  let records: CaseRecord[] = [];
  let runDir = '';
  let evalCode: number | null = null;
  let evalErr = '';
  let stdioCode: number | null = null;

  beforeAll(async () => {
    writeFileSync(
      join(dir, 'inproc.yaml'),
      `name: conv-inproc\nservers:\n  economist: { builtin: economist }\ncases:${conversation('tax-pair')}${leakCases}\n`,
    );
    const probe = `
        - probe: { tool: get_parameter, args: { parameter_name: vat_rate } }
          path: [value]
          equals: 0.2`;
    writeFileSync(
      join(dir, 'stdio.yaml'),
      `name: conv-stdio\nservers:\n  economist:\n    command: ${yamlList([...CLI_WORDS, 'serve', 'mcp', 'economist'])}\n    isolate: true\ncases:${conversation('tax-pair', probe)}\n`,
    );
    writeFileSync(
      join(dir, 'toolgauge.config.yaml'),
      [
        'suites: [inproc.yaml]',
        'renderers: [native-functions, full-details]',
        'providers: [sim:oracle, sim:detour, sim:stopper]',
        'repeats: 2',
        'concurrency: 8',
        'seed: 1',
        'maxTurns: 6',
        'out: reports',
        '',
      ].join('\n'),
    );
    // the stdio server is a process per case (isolate): one renderer, so few processes
    const [res, stdio] = await Promise.all([
      runCliAnywhere(['eval', '-q'], dir),
      runCliAnywhere(
        ['eval', '-q', '--suite', 'stdio.yaml', '-r', 'full-details', '--repeat', '1', '--out', 'stdio-runs'],
        dir,
      ),
    ]);
    evalCode = res.code;
    evalErr = res.stderr + stdio.stderr;
    stdioCode = stdio.code;
    runDir = runDirFrom(res.stderr, dir);
    records = [runDir, runDirFrom(stdio.stderr, dir)].flatMap((d) =>
      readRecords(join(d, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case'),
    );
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const grade = (r: CaseRecord, grader: string) => r.grades.find((g) => g.grader === grader) as Grade;
  const of = (suite: string, id: string, provider: string) =>
    records.filter((r) => r.suite === suite && r.case === id && r.provider === provider);

  it('runs every conversation to its end, each message after the answer to the one before', () => {
    expect(evalErr).not.toMatch(/error/i);
    expect([evalCode, stdioCode]).toEqual([0, 0]);
    // (1 + 6) in-process cases × 2 renderers × 3 personas × 2 repeats, and the stdio case × 3 personas
    expect(records).toHaveLength(7 * 2 * 3 * 2 + 3);
    expect(records.filter((r) => r.error)).toEqual([]);
    for (const r of of('conv-inproc', 'tax-pair', 'sim:oracle')) {
      const turns = r.transcript.turns;
      expect(turns.map((t) => t.userTurn)).toEqual([0, 0, 1, 1, 1]);
      // the second message is sent after the first answer, with the whole history before it
      const second = turns[2]?.request.messages ?? [];
      const spoken = second.filter((m) => m.role === 'user' && !m.content.startsWith('<tool_result'));
      expect(spoken.map((m) => m.content)).toEqual([
        'Set the income tax rate to 0.3.',
        'Good. Now set the VAT rate to 0.2 and the corporate tax rate to 0.2, one after the other.',
      ]);
      expect(second.at(-2)).toEqual({ role: 'assistant', content: turns[1]?.response.text });
      expect(r.transcript.stopReason).toBe('answered');
    }
  });

  it('two valid paths both pass final-state, while the call-list grader accepts only one (in-process and stdio)', () => {
    for (const suite of ['conv-inproc', 'conv-stdio']) {
      for (const r of of(suite, 'tax-pair', 'sim:oracle')) {
        expect(grade(r, 'correct-arguments').pass, r.key).toBe(true);
        expect(grade(r, 'final-state').pass, r.key).toBe(true);
      }
      for (const r of of(suite, 'tax-pair', 'sim:detour')) {
        const calls = r.transcript.turns.flatMap((t) => t.executed.map((x) => x.tool));
        expect(calls).toEqual(['set_parameter', 'batch_set_parameters']);
        const list = grade(r, 'correct-arguments');
        expect(list.pass, r.key).toBe(false);
        expect(list.data?.failedTurn).toBe(2);
        expect(list.reason).toMatch(/^turn 2: /);
        expect(grade(r, 'final-state').pass, `${r.key}: ${grade(r, 'final-state').reason}`).toBe(true);
      }
      // the stopper quits after the first call of the second message: the state is not the goal
      for (const r of of(suite, 'tax-pair', 'sim:stopper')) {
        expect(grade(r, 'final-state').pass).toBe(false);
        expect(grade(r, 'final-state').reason).toContain('corporate_tax_rate: 0.25, expected 0.2');
      }
    }
    // what the facts read is in the record: the view's values, and over stdio the probe's result too
    const stdio = of('conv-stdio', 'tax-pair', 'sim:detour')[0];
    expect(stdio?.transcript.state?.views[0]).toEqual({
      server: 'economist',
      path: ['parameters', 'income_tax_rate'],
      found: true,
      value: 0.3,
    });
    expect(stdio?.transcript.state?.probes[0]).toMatchObject({ tool: 'get_parameter', isError: false });
    expect(JSON.parse(stdio?.transcript.state?.probes[0]?.result ?? '{}').value).toBe(0.2);
  });

  it('keeps each case to its own server state at concurrency 8 (fresh server per case)', () => {
    const wage = records.filter((r) => r.case.startsWith('wage-') && r.provider === 'sim:oracle');
    expect(wage).toHaveLength(6 * 2 * 2);
    for (const r of wage) {
      expect(grade(r, 'continued-after-results').pass, `${r.key}: ${grade(r, 'continued-after-results').reason}`).toBe(
        true,
      );
      expect(grade(r, 'final-state').pass, `${r.key}: ${grade(r, 'final-state').reason}`).toBe(true);
    }
  });

  it('reports pass^k per conversation and the turn each failure happened at (summary.md, run.json, report.html)', () => {
    const summary = readFileSync(join(runDir, 'summary.md'), 'utf8');
    const section = summary.slice(summary.indexOf('## Conversations'));
    // detour reaches every goal state (pass^2 100%) while its call list fails at the second message
    expect(section).toMatch(/\| native-functions \| sim:detour \(simulated\) \| 7 \| 100% \| 86% \| turn 2: 2 \|/);
    expect(section).toMatch(/\| full-details \| sim:oracle \(simulated\) \| 7 \| 100% \| 100% \| – \|/);
    expect(section).toContain(
      '`conv-inproc/tax-pair` in native-functions × sim:detour: passed 0/2, pass^2 0% (goal state: 2/2, pass^2 100%); failed at turn 2 (×2)',
    );
    const run = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as {
      conversations: { case: string; renderer: string; provider: string; passHatK: number; failedAt: object }[];
    };
    const stopper = run.conversations.find(
      (c) => c.case === 'conv-inproc/tax-pair' && c.provider === 'sim:stopper' && c.renderer === 'full-details',
    );
    expect(stopper).toMatchObject({ trials: 2, passes: 0, passHatK: 0, state: { trials: 2, passes: 0 } });
    expect(stopper?.failedAt).toEqual({ 'turn 1': 2 });
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('<a href="#conversations">Conversations</a>');
    expect(html).toMatch(/<td>conv-inproc\/tax-pair<\/td><td>native-functions<\/td>/);
  });

  it('shows each user message and the state read in the report case view (headless Chromium)', async (ctx) => {
    const binary = process.env.TOOLGAUGE_CHROMIUM || '/usr/bin/chromium';
    if (!existsSync(binary)) {
      if (process.env.TOOLGAUGE_REQUIRE_BROWSER === '1') throw new Error(`no Chromium at ${binary}`);
      ctx.skip(`no Chromium at ${binary} (install it: apt-get install chromium, or set TOOLGAUGE_CHROMIUM)`);
    }
    const profile = mkdtempSync(join(tmpdir(), 'tg-multi-turn-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: binary,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(join(runDir, 'report.html')).href);
      await page.waitForSelector('body[data-ready="1"]');
      await page.locator('#f-q').fill('conv-inproc/tax-pair|native-functions|sim:detour|0');
      const item = page.locator('li.case', { hasText: 'conv-inproc/tax-pair|native-functions|sim:detour|0' });
      await item.locator('button.open').click();
      await item.locator('h4.userturn').nth(1).waitFor();
      const text = await item.innerText();
      expect(text).toContain('User message 1');
      expect(text).toContain('User message 2');
      expect(text).toContain(
        'Good. Now set the VAT rate to 0.2 and the corporate tax rate to 0.2, one after the other.',
      );
      expect(text).toContain('answering user message 2');
      expect(text).toContain('State after the conversation');
      expect(text).toContain('FAIL correct-arguments: turn 2:');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);

  it('holds each user message and the state read in the report case data', () => {
    const data = reportData(readFileSync(join(runDir, 'report.html'), 'utf8'));
    const details = [...data.failing, ...data.passing].flatMap((chunk) =>
      chunk.c.map(([, d]) => ({ d: d as { tu: { ut?: number }[]; st?: number | string }, s: chunk.s })),
    );
    const conv = details.filter((x) => x.d.tu.some((t) => t.ut === 1));
    expect(conv.length).toBeGreaterThan(0);
    const state = conv[0]?.d.st;
    const text = typeof state === 'number' ? conv[0]?.s[state] : state;
    expect(text).toContain('income_tax_rate');
    const summary = readFileSync(join(runDir, 'summary.md'), 'utf8');
    expect(summary).toContain('final-state');
  });

  it('regrade reproduces every grade from the run log alone, and replay reproduces the run', async () => {
    const key = (r: CaseRecord) => `${r.key}`;
    const ran = records.filter((r) => r.suite === 'conv-inproc');
    const grades = new Map(ran.map((r) => [key(r), JSON.stringify(r.grades)]));
    const [regraded, replayed] = await Promise.all([
      runCliAnywhere(['regrade', runDir, '--out', join(dir, 'regraded')], dir),
      runCliAnywhere(['replay', runDir, '-q'], dir),
    ]);
    expect(regraded.code).toBe(0);
    const again = readRecords(join(dir, 'regraded', 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    expect(again).toHaveLength(ran.length);
    for (const r of again) expect(JSON.stringify(r.grades), r.key).toBe(grades.get(key(r)));
    expect(replayed.code).toBe(0);
    const replayDir = runDirFrom(replayed.stderr, dir);
    const replay = readRecords(join(replayDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    expect(replay).toHaveLength(ran.length);
    for (const r of replay) expect(JSON.stringify(r.grades), r.key).toBe(grades.get(key(r)));
  }, 120_000);
});
