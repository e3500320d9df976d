import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, ConfigObject, Reporter, RunEnd } from '../src/index.js';
import {
  compare,
  evaluate,
  exportRun,
  grade,
  isToolgaugeError,
  merge,
  parse,
  readRunLog,
  regrade,
  render,
} from '../src/index.js';
import { useTempDirs } from './helpers/temp-dirs.js';

// evaluate() as a program uses it: the bundled suites' real MCP servers (in-process), simulated providers, the run
// folder on disk; nothing printed, the run followed through its hooks and read from its result.
const tempDir = useTempDirs();

/** A small offline config: the excel suite's reading cases, two strategies, the oracle; the gate holds it to 100%. */
function configIn(out: string): ConfigObject {
  return {
    suites: ['excel'],
    renderers: ['names-only', 'native-functions'],
    providers: ['sim:oracle'],
    concurrency: 1,
    out,
    gate: {
      baseline: 'none',
      thresholds: [{ grader: 'parseable', provider: 'sim:oracle', min: 1 }],
    },
  };
}

async function logRecords(runLog: string): Promise<CaseRecord[]> {
  const out: CaseRecord[] = [];
  for await (const r of readRunLog(runLog)) if (r.type === 'case') out.push(r);
  return out;
}

/** Every write to stdout and stderr while `fn` runs: the library prints nothing. */
async function silent<T>(fn: () => Promise<T>): Promise<{ value: T; printed: string[] }> {
  const printed: string[] = [];
  const out = process.stdout.write;
  const err = process.stderr.write;
  const capture = (chunk: unknown) => {
    printed.push(String(chunk));
    return true;
  };
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  try {
    return { value: await fn(), printed };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

describe('evaluate()', () => {
  it('streams each record, feeds the reporters given, and returns the verdict and the run folder', async () => {
    const out = tempDir('tg-api-eval-');
    const seen: { key: string; done: number; total: number }[] = [];
    const hooks: string[] = [];
    let end: RunEnd | undefined;
    const reporter: Reporter = {
      name: 'counting',
      onRunStart: () => void hooks.push('start'),
      onCase: (r) => void hooks.push(`case ${r.key}`),
      onRunEnd: (e) => {
        hooks.push('end');
        end = e;
      },
    };
    let started = 0;
    const { value: result, printed } = await silent(() =>
      evaluate(
        { config: configIn(out), tag: ['read'] },
        {
          reporters: [reporter],
          onStart: (s) => {
            started = s.total;
          },
          onRecord: (r, p) => seen.push({ key: r.key, done: p.done, total: p.total }),
        },
      ),
    );
    expect(printed).toEqual([]);
    expect(process.exitCode ?? 0).toBe(0);
    expect(result.exitCode).toBe(0);
    expect(result.verdict).toMatchObject({ exitCode: 0, judged: true });
    expect(result.verdict.lines.at(-1)).toBe('gate: passed');
    expect(result.verdict.checks.length).toBeGreaterThan(0);
    expect(result.interrupted).toBe(false);
    // every planned case went by onRecord once, in the order the run log holds them, counting up to the total
    const logged = await logRecords(result.runLog);
    expect(started).toBe(result.planned);
    expect(result.planned).toBeGreaterThan(4);
    expect(seen.map((s) => s.key)).toEqual(logged.map((r) => r.key));
    expect(seen.map((s) => s.done)).toEqual(logged.map((_, i) => i + 1));
    expect(new Set(seen.map((s) => s.total))).toEqual(new Set([result.planned]));
    expect(result.aggregate.total).toBe(result.planned);
    // the reporter saw the run start, each record, and the end with the gate
    expect(hooks).toEqual(['start', ...logged.map((r) => `case ${r.key}`), 'end']);
    expect(end?.gate?.exitCode).toBe(0);
    expect(end?.total).toBe(result.planned);
    // the folder holds the reports, summary.md as the result gives it
    expect(result.runDir.startsWith(out)).toBe(true);
    expect(readFileSync(join(result.runDir, 'summary.md'), 'utf8')).toBe(result.summary);
    expect(result.header.runId).toBe(result.runId);
  });

  it('signal stops as a first Ctrl-C does: finished records kept (exit 130), and resume runs the rest', async () => {
    const out = tempDir('tg-api-stop-');
    const stop = new AbortController();
    const first = await evaluate(
      { config: configIn(out), tag: ['read'] },
      {
        signal: stop.signal,
        onRecord: (_r, p) => {
          if (p.done === 2) stop.abort();
        },
      },
    );
    expect(first.interrupted).toBe(true);
    expect(first.exitCode).toBe(130);
    expect(first.verdict.judged).toBe(false);
    const kept = await logRecords(first.runLog);
    expect(kept).toHaveLength(2);
    expect(first.aggregate.total).toBe(2);

    // resumed: the kept records go by first (not run again), then the rest of the plan, each case once
    const order: string[] = [];
    const dones: number[] = [];
    const second = await evaluate(
      { resume: first.runDir },
      {
        onRecord: (r, p) => {
          order.push(r.key);
          dones.push(p.done);
        },
      },
    );
    expect(second.exitCode).toBe(0);
    expect(second.runDir).toBe(first.runDir);
    const all = await logRecords(second.runLog);
    expect(all).toHaveLength(first.planned);
    expect(new Set(all.map((r) => r.key)).size).toBe(first.planned);
    expect(order).toHaveLength(first.planned - 2);
    expect(order).not.toContain(kept[0]?.key);
    // the kept records are counted, not told again
    expect([dones[0], dones.at(-1)]).toEqual([3, first.planned]);
    expect(all.slice(0, 2)).toEqual(kept);
  });

  it('rejects a bad config object with a typed error naming the field, printing nothing and leaving no folder', async () => {
    const out = tempDir('tg-api-bad-');
    const { value: error, printed } = await silent(() =>
      evaluate({ config: { ...configIn(join(out, 'runs')), repeats: 0 } }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(printed).toEqual([]);
    expect(isToolgaugeError(error) && error.code).toBe('CONFIG_INVALID');
    expect((error as Error).message).toMatch(/^\(config object\): repeats: /);
    expect(existsSync(join(out, 'runs'))).toBe(false);
  });

  it('a hook that throws stops the run as a failing reporter does: REPORTER_FAILED, the finished records kept', async () => {
    const out = tempDir('tg-api-hook-');
    let runLog = '';
    const error = await evaluate(
      { config: configIn(out), tag: ['read'] },
      {
        onStart: (s) => {
          runLog = join(s.runDir, 'run.jsonl');
        },
        onRecord: (_r, p) => {
          if (p.done === 2) throw new Error('the caller broke');
        },
      },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isToolgaugeError(error) && error.code).toBe('REPORTER_FAILED');
    expect((error as Error).message).toBe('onRecord failed: the caller broke');
    expect(await logRecords(runLog)).toHaveLength(2);
  });

  it('merge, regrade, compare, render and parse return as data what their commands print', async () => {
    const out = tempDir('tg-api-more-');
    const shards = [];
    for (const shard of ['1/2', '2/2']) shards.push(await evaluate({ config: configIn(out), tag: ['read'], shard }));
    const merged = await merge(
      shards.map((s) => s.runDir),
      { out: join(out, 'merged') },
    );
    expect(merged.warnings).toEqual([]);
    expect(merged.aggregate.total).toBe(shards[0]!.planned + shards[1]!.planned);
    expect(merged.verdict.lines.at(-1)).toBe('gate: passed');
    const regraded = await regrade(merged.runDir, { out: join(out, 'regraded') });
    expect(regraded).toMatchObject({ changed: 0, exitCode: 0 });
    expect(regraded.aggregate.total).toBe(merged.aggregate.total);
    const compared = await compare(merged.runDir, regraded.runDir);
    expect(compared).toMatchObject({ exitCode: 0, regressions: [], file: join(regraded.runDir, 'compare.md') });
    expect(readFileSync(compared.file, 'utf8')).toBe(compared.markdown);

    const shown = await render({ suite: 'excel', case: 'read-sheet1-zh', renderer: 'names-only' });
    expect(shown).toMatchObject({ suite: 'excel', caseId: 'read-sheet1-zh', strategy: 'names-only' });
    expect(shown.rendered.system).toContain('read_data_from_excel');
    const reply = join(out, 'reply.txt');
    writeFileSync(
      reply,
      '<tool_call>{"name": "read_data_from_excel", "arguments": {"sheet_name": "Sheet1"}}</tool_call>',
    );
    const parsed = await parse(reply, { suite: 'excel', case: 'read-sheet1-zh' });
    const docs = [];
    for await (const d of parsed.documents) docs.push(d);
    expect(parsed.format).toBe('text');
    expect(docs).toHaveLength(1);
    expect(docs[0]?.calls.map((c) => c.name)).toEqual(['read_data_from_excel']);
  });

  it('grade reads recorded outputs from a stream, and exportRun writes the run for promptfoo', async () => {
    const out = tempDir('tg-api-grade-');
    const call =
      '<tool_call>{"name": "read_data_from_excel", "arguments": {"filepath": "test.xlsx", "sheet_name": "Sheet1"}}</tool_call>';
    const lines = [
      { case: 'read-sheet1-zh', output: call },
      { case: 'read-sheet1-zh', output: 'Which file do you mean?' },
    ];
    const started: number[] = [];
    const graded = await grade(
      { suite: 'excel', outputs: '-', input: Readable.from(lines.map((l) => `${JSON.stringify(l)}\n`)), out },
      { onStart: (s) => started.push(s.planned) },
    );
    expect(started).toEqual([2]);
    expect(graded).toMatchObject({ exitCode: 0, interrupted: false, verdict: { judged: false, lines: [] } });
    const records = await logRecords(graded.runLog);
    expect(records.map((r) => r.grades.find((g) => g.grader === 'parseable')?.pass)).toEqual([true, false]);
    expect(graded.header.config.outputs).toBe('-');

    const exported = await exportRun('promptfoo', graded.runDir);
    expect(exported).toEqual({ file: join(graded.runDir, 'promptfoo.json'), results: 2 });
    expect(JSON.parse(readFileSync(exported.file, 'utf8')).results.results).toHaveLength(2);
  });
});
