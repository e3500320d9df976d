import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { providerResponder, startLlmMock } from '../mock-servers/llm/index.js';
import { simFactory } from '../providers/simulated/index.js';
import { caseOracles } from '../src/cli/case-oracles.js';
import { loadSuite } from '../src/config/load-suite.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import type { TuneResult } from '../src/tune/tune-result.js';
import { finished, ROOT, readRecords, runCli, runDirFrom, startCli, waitFor } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/** A small space: one renderer the guesser cannot use, three it can, and a grid over tool search's k. */
const SPACE = [
  'renderers:',
  '  - names-only',
  '  - { name: full-details, options: { protocol: json } }',
  '  - native-functions',
  '  - { name: tool-search, grid: { k: [3, 10] } }',
  '',
].join('\n');

const readResult = (dir: string) => JSON.parse(readFileSync(join(dir, 'tune.json'), 'utf8')) as TuneResult;
const cassetteLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { key: string });
/** What a tune decided, without the folder and the clock. */
const decided = (r: TuneResult) => r.providers.map((p) => ({ ...p }));

describe('toolgauge tune (real CLI, offline personas)', () => {
  const work = tempDir('tg-tune-');
  const space = join(work, 'space.yaml');
  writeFileSync(space, SPACE);
  const tuneArgs = (out: string, ...more: string[]) => [
    'tune',
    '--suite',
    'economist',
    '--provider',
    'sim:guesser',
    '--provider',
    'sim:oracle',
    '--space',
    space,
    '--seed',
    '3',
    '--out',
    out,
    ...more,
  ];

  it('recommends a strategy per provider with the evidence; the same seed decides the same; nothing is paid twice, not even by an eval of the winner', async () => {
    const first = join(work, 'first');
    const res = await runCli(tuneArgs(first));
    expect(res.code, res.stderr).toBe(0);
    // the estimate comes before anything is spent, then a line per round
    expect(res.stderr).toMatch(
      /tune: 5 candidates × 2 provider\(s\) on \d+ cases \(seed 3, grader correct-arguments\)/,
    );
    expect(res.stderr).toMatch(
      /tune: estimate: first round \d+ calls; the race ≈ \d+ calls, \d+ tokens .*; the full grid ≈ \d+ calls/,
    );
    expect(res.stderr).toMatch(/tune: sim:guesser round 1: 10 cases × 5 candidates/);
    const result = readResult(first);
    const guesser = result.providers.find((p) => p.provider === 'sim:guesser')!;
    // names-only hides the parameters from the guesser: it is eliminated with a significant, Holm-adjusted p-value
    const out = guesser.candidates.find((c) => c.label === 'names-only')!;
    expect(out.status).toBe('eliminated');
    expect(out.eliminated).toMatchObject({ reason: 'worse' });
    expect(out.eliminated!.pAdjusted).toBeLessThan(0.05);
    expect(guesser.recommended?.label).not.toBe('names-only');
    expect(guesser.recommended!.wilson95[0]).toBeLessThanOrEqual(guesser.recommended!.rate);
    expect(guesser.rounds.length).toBeGreaterThan(1);
    expect(guesser.rounds[0]).toMatchObject({ round: 1, cases: 10, newCases: 10, candidates: 5 });
    expect(guesser.pareto.length).toBeGreaterThan(0);
    for (const p of result.providers) expect(p.calls).toBeLessThan(p.gridCalls);
    expect(result.calls.paid).toBe(result.calls.spent);
    // tune.md: the recommendation, the rounds with their eliminations and p-values, the snippet
    const md = readFileSync(join(first, 'tune.md'), 'utf8');
    expect(md).toContain('## sim:guesser (simulated)');
    expect(md).toContain(`**Recommended: ${guesser.recommended!.label}**`);
    expect(md).toMatch(/names-only worse than .* \(\d+ vs \d+ cases, p [\d.]+\)/);
    expect(md).toContain('## Config snippet');
    const html = readFileSync(join(first, 'tune.html'), 'utf8');
    expect(html).toContain(`Recommended: <strong>${guesser.recommended!.label}</strong>`);
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script/i);
    expect(res.stdout).toContain(`sim:guesser: ${guesser.recommended!.label} — `);
    expect(res.stdout).toContain('# config snippet (toolgauge.config.yaml):');

    // the same seed again, through the first tune's cassettes: the same decisions, every call answered from them
    const second = join(work, 'second');
    const again = await runCli(tuneArgs(second, '--cassettes', join(first, 'cassettes.jsonl'), '-q'));
    expect(again.code, again.stderr).toBe(0);
    const repeat = readResult(second);
    expect(decided(repeat)).toEqual(decided(result));
    expect(repeat.calls).toMatchObject({ spent: result.calls.spent, paid: 0, reused: result.calls.spent });

    // the snippet is a config: an eval of the winners with the tune's cassettes buys only the cases the race skipped
    const config = join(work, 'winners.yaml');
    writeFileSync(
      config,
      `suites: [economist]\ngate: { baseline: none }\nout: ${JSON.stringify(join(work, 'runs'))}\n${result.snippet}`,
    );
    const cassettes = join(first, 'cassettes.jsonl');
    const before = cassetteLines(cassettes).length;
    const ev = await runCli(['eval', '-c', config, '--replay-or-record', '--cassettes', cassettes, '-q']);
    expect(ev.stderr).not.toContain('internal error');
    const records = readRecords(join(runDirFrom(ev.stderr), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    expect(records.map((r) => r.renderer).sort()).toEqual(
      records.map((r) => (r.provider === 'sim:guesser' ? guesser.recommended!.label : r.renderer)).sort(),
    );
    const turns = records.reduce((n, r) => n + r.transcript.turns.length, 0);
    const bought = cassetteLines(cassettes).length - before;
    const raced = result.providers.reduce((n, p) => n + (p.recommended?.calls ?? 0), 0);
    expect(bought).toBe(turns - raced);
  }, 120_000);

  it('a bad space file is one located line and exit 2; a budget the race would pass is refused before anything is written', async () => {
    const bad = join(work, 'bad-space.yaml');
    writeFileSync(bad, 'renderers:\n  - name: tool-search\n    grid: { k: 5 }\n');
    const res = await runCli(['tune', '--suite', 'economist', '--provider', 'sim:oracle', '--space', bad]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/bad-space\.yaml:3:\d+: renderers\[0\]\.grid\.k: /);

    const refusedDir = join(work, 'refused');
    const refused = await runCli(tuneArgs(refusedDir, '--budget-calls', '20'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /tune refused: the race is estimated at \d+ calls .* over --budget-calls 20; raise the budget, or pass --yes/,
    );
    expect(existsSync(refusedDir)).toBe(false);
    const tokens = await runCli(tuneArgs(refusedDir, '--budget-tokens', '1000'));
    expect(tokens.code).toBe(2);
    expect(tokens.stderr).toMatch(/tune refused: .* over --budget-tokens 1000/);
    expect(existsSync(refusedDir)).toBe(false);

    // --yes starts it all the same, and the race stops before a round that would pass the budget
    const capped = join(work, 'capped');
    const yes = await runCli(tuneArgs(capped, '--budget-calls', '150', '--yes', '-q'));
    expect(yes.code, yes.stderr).toBe(0);
    const result = readResult(capped);
    expect(result.budget).toEqual({ calls: 150, spent: true });
    expect(result.calls.spent).toBeLessThanOrEqual(150);
    expect(result.providers.every((p) => p.stopReason === 'budget')).toBe(true);
  }, 120_000);
});

const KEY = 'sk-tune-resume-secret-4242';

describe('toolgauge tune interrupted and resumed (real openai SDK against the wire mock)', () => {
  it('Ctrl-C keeps every reply bought; --resume finishes the race and pays for no request twice', async () => {
    const work = tempDir('tg-tune-resume-');
    const suite = loadSuite(join(ROOT, 'suites', 'economist.yaml'));
    const oracles = caseOracles([suite]);
    const persona = providerResponder(simFactory.create('guesser', {}, { env: {} }), (r) => oracles.lookup(r.messages));
    // a few milliseconds a reply, so the interrupt lands while the first rounds are in flight
    process.env.OPENAI_API_KEY = KEY;
    const mock = await startLlmMock({
      apiKey: KEY,
      responder: async (request, ctx) => {
        await delay(5);
        return persona(request, ctx);
      },
    });
    try {
      const out = join(work, 'tune');
      const space = join(work, 'space.yaml');
      writeFileSync(space, SPACE);
      const args = [
        '--provider-option',
        `baseURL=${mock.url}/v1`,
        '--provider-option',
        'maxRetries=0',
        '--concurrency',
        '2',
      ];
      const child = startCli([
        'tune',
        '--suite',
        'economist',
        '--provider',
        'openai:mock-model',
        '--space',
        space,
        '--seed',
        '2',
        '--out',
        out,
        '--yes',
        ...args,
      ]);
      const done = finished(child);
      const cassettes = join(out, 'cassettes.jsonl');
      // while the tune writes, the file's last line may be half written: count the finished lines only
      const finishedLines = () => readFileSync(cassettes, 'utf8').split('\n').length - 1;
      await waitFor(() => existsSync(cassettes) && finishedLines() >= 30, 60_000);
      child.kill('SIGINT');
      const stopped = await done;
      expect(stopped.code, stopped.stderr).toBe(130);
      expect(stopped.stderr).toContain(`Tune interrupted. Resume with: toolgauge tune --resume`);
      const boughtBefore = cassetteLines(cassettes).length;
      expect(mock.requests.length).toBe(boughtBefore);
      const cut = readResult(out);
      expect(cut.interrupted).toBe(true);
      // the calls of the cases that finished, the round cut short included, are all counted, and all were bought
      expect(cut.calls).toMatchObject({ spent: boughtBefore, paid: boughtBefore, reused: 0 });

      const resumed = await runCli(['tune', '--resume', out, ...args, '-q']);
      expect(resumed.code, resumed.stderr).toBe(0);
      const result = readResult(out);
      expect(result.interrupted).toBe(false);
      expect(result.providers[0]!.recommended).not.toBeNull();
      const entries = cassetteLines(cassettes);
      // every request the mock answered is one cassette entry, and no request was bought twice
      expect(mock.requests.length).toBe(entries.length);
      expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
      // the resumed race replayed what the interrupted one had bought, and bought only the rest
      expect(result.calls.reused).toBeGreaterThanOrEqual(boughtBefore);
      expect(result.calls.paid).toBe(entries.length - boughtBefore);
      for (const file of ['tune-input.json', 'tune.json', 'tune.md', 'cassettes.jsonl'])
        expect(readFileSync(join(out, file), 'utf8')).not.toContain(KEY);
    } finally {
      delete process.env.OPENAI_API_KEY;
      await mock.close();
    }
  }, 120_000);
});
