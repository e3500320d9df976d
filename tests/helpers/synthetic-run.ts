import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseRecord, RunFooter, RunHeader } from '../../src/run-log/schema.js';
import { RUN_LOG_FORMAT } from '../../src/run-log/schema.js';

/** One planned case for a synthetic run: which graders pass, or an infrastructure error, and the reply text. */
export interface SyntheticCase {
  suite?: string;
  case: string;
  renderer?: string;
  provider?: string;
  repeat?: number;
  pass: Record<string, boolean>;
  reply?: string;
  reason?: string;
  error?: { code: string; message: string };
}

/**
 * Writes a run log (header, case records with a one-turn transcript, footer) the way the runner does, so
 * report writers, compare and the gate can be tested on known numbers. For tests only.
 */
export function writeSyntheticRun(
  dir: string,
  runId: string,
  cases: SyntheticCase[],
  opts: { repeats?: number; interrupted?: boolean } = {},
): string {
  const runDir = join(dir, runId);
  mkdirSync(runDir, { recursive: true });
  const renderers = [...new Set(cases.map((c) => c.renderer ?? 'full-details'))];
  const providers = [...new Set(cases.map((c) => c.provider ?? 'sim:oracle'))];
  const suites = [...new Set(cases.map((c) => c.suite ?? 'excel'))];
  const header: RunHeader = {
    type: 'header',
    format: RUN_LOG_FORMAT,
    runId,
    toolgaugeVersion: '0.0.0-test',
    startedAt: '2026-11-22T01:02:03.000Z',
    gitCommit: null,
    configFile: 'synthetic.yaml',
    config: { repeats: opts.repeats ?? 1, seed: 1, suites },
    strategies: renderers.map((label) => ({ label, name: label, options: {} })),
    providers: providers.map((label) => ({ label, id: label, simulated: label.startsWith('sim:') })),
    suites: suites.map((name) => ({ name, file: `suites/${name}.yaml`, cases: cases.length })),
    plannedCases: cases.length,
  };
  const lines: string[] = [JSON.stringify(header)];
  for (const c of cases) {
    const suite = c.suite ?? 'excel';
    const renderer = c.renderer ?? 'full-details';
    const provider = c.provider ?? 'sim:oracle';
    const repeat = c.repeat ?? 0;
    const reply = c.reply ?? `<tool_call>{"name":"read","arguments":{"case":"${c.case}"}}</tool_call>`;
    const record: CaseRecord = {
      type: 'case',
      key: `${suite}/${c.case}|${renderer}|${provider}|${repeat}`,
      suite,
      case: c.case,
      renderer,
      provider,
      simulated: provider.startsWith('sim:'),
      repeat,
      protocol: 'xml-tags',
      catalogHash: 'h',
      promptTokens: 120,
      transcript: {
        turns: [
          {
            index: 0,
            request: {
              system: `You can call tools. (${renderer})`,
              messages: [{ role: 'user', content: `Please do ${c.case}` }],
              protocol: 'xml-tags',
              meta: { caseId: c.case, repeat, seed: 1, renderer, turn: 0 },
            },
            response: {
              text: reply,
              toolCalls: [],
              finishReason: 'stop',
              usage: { input: 120, output: 20 },
              latencyMs: 5,
              raw: { request: null, response: null },
            },
            parse: { calls: [], diagnostics: [] },
            executed: [],
          },
        ],
        finalText: reply,
        stopReason: c.error ? 'error' : 'answered',
      },
      grades: c.error
        ? []
        : Object.entries(c.pass).map(([grader, pass]) => ({
            grader,
            pass,
            score: pass ? 1 : 0,
            reason: pass ? `${grader} ok` : (c.reason ?? `${grader} failed for ${c.case}`),
          })),
      startedAt: header.startedAt,
      durationMs: 250,
      usage: { input: 120, output: 20 },
      ...(c.error ? { error: c.error } : {}),
    };
    lines.push(JSON.stringify(record));
  }
  if (!opts.interrupted) {
    const footer: RunFooter = {
      type: 'footer',
      finishedAt: '2026-11-22T01:03:00.000Z',
      interrupted: false,
      completed: cases.length,
      errors: cases.filter((c) => c.error).length,
    };
    lines.push(JSON.stringify(footer));
  }
  writeFileSync(join(runDir, 'run.jsonl'), `${lines.join('\n')}\n`);
  return runDir;
}

/** n cases in one cell whose graders pass for the first `passing` of them. */
export function passingCases(
  n: number,
  passing: number,
  graders: string[],
  extra: Partial<SyntheticCase> = {},
): SyntheticCase[] {
  return Array.from({ length: n }, (_, i) => ({
    case: `case-${String(i).padStart(3, '0')}`,
    pass: Object.fromEntries(graders.map((g) => [g, i < passing])),
    ...extra,
  }));
}
