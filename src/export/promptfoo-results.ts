import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { sha256 } from '../util/canonical-json.js';

/** promptfoo's ResultFailureReason (src/types): 0 none, 1 an assertion failed, 2 an error. */
const FAILURE = { none: 0, assert: 1, error: 2 } as const;

interface Metrics {
  score: number;
  testPassCount: number;
  testFailCount: number;
  testErrorCount: number;
  assertPassCount: number;
  assertFailCount: number;
  totalLatencyMs: number;
  tokenUsage: { prompt: number; completion: number; cached: number; total: number; numRequests: number };
  namedScores: Record<string, number>;
  namedScoresCount: Record<string, number>;
  cost: number;
}

/** A promptfoo column: one toolgauge cell (renderer strategy × provider). */
export interface PromptfooPrompt {
  id: string;
  raw: string;
  label: string;
  provider: string;
  metrics: Metrics;
}

const emptyMetrics = (): Metrics => ({
  score: 0,
  testPassCount: 0,
  testFailCount: 0,
  testErrorCount: 0,
  assertPassCount: 0,
  assertFailCount: 0,
  totalLatencyMs: 0,
  tokenUsage: { prompt: 0, completion: 0, cached: 0, total: 0, numRequests: 0 },
  namedScores: {},
  namedScoresCount: {},
  cost: 0,
});

/**
 * Converts a toolgauge run into promptfoo's eval export (results `version: 3`, what `promptfoo eval -o x.json`
 * writes and `promptfoo import` reads), in two streaming passes so memory does not grow with the run: `observe`
 * every record (columns, tests, totals), then `result` each record again. Pure apart from its own tallies.
 */
export class PromptfooExport {
  private readonly prompts = new Map<string, PromptfooPrompt & { idx: number }>();
  private readonly tests = new Map<string, number>();
  private readonly stats = { successes: 0, failures: 0, errors: 0, durationMs: 0 };
  private readonly tokens = { prompt: 0, completion: 0, cached: 0, total: 0, numRequests: 0 };

  constructor(private readonly header: RunHeader) {
    for (const s of header.strategies) for (const p of header.providers) this.column(s.label, p.label);
  }

  private column(renderer: string, provider: string) {
    const key = `${renderer}|${provider}`;
    let p = this.prompts.get(key);
    if (!p) {
      p = {
        id: sha256(key),
        raw: renderer,
        label: renderer,
        provider,
        metrics: emptyMetrics(),
        idx: this.prompts.size,
      };
      this.prompts.set(key, p);
    }
    return p;
  }

  private testIdx(r: CaseRecord): number {
    const key = `${r.suite}/${r.case}|${r.repeat}`;
    let idx = this.tests.get(key);
    if (idx === undefined) {
      idx = this.tests.size;
      this.tests.set(key, idx);
    }
    return idx;
  }

  observe(r: CaseRecord): void {
    const m = this.column(r.renderer, r.provider).metrics;
    this.testIdx(r);
    const turns = r.transcript.turns.length;
    for (const t of [m.tokenUsage, this.tokens]) {
      t.prompt += r.usage.input;
      t.completion += r.usage.output;
      t.cached += r.usage.cached ?? 0;
      t.total += r.usage.input + r.usage.output;
      t.numRequests += turns;
    }
    m.totalLatencyMs += r.durationMs;
    this.stats.durationMs += r.durationMs;
    if (r.error) {
      m.testErrorCount++;
      this.stats.errors++;
      return;
    }
    const pass = r.grades.every((g) => g.pass);
    if (pass) {
      m.testPassCount++;
      this.stats.successes++;
    } else {
      m.testFailCount++;
      this.stats.failures++;
    }
    m.score += score(r);
    for (const g of r.grades) {
      if (g.pass) m.assertPassCount++;
      else m.assertFailCount++;
      m.namedScores[g.grader] = (m.namedScores[g.grader] ?? 0) + g.score;
      m.namedScoresCount[g.grader] = (m.namedScoresCount[g.grader] ?? 0) + 1;
    }
  }

  /** Everything before the results array (as an object whose `results.results` the writer fills in). */
  head() {
    const prompts = [...this.prompts.values()].map(({ idx: _idx, ...p }) => p);
    return {
      evalId: `eval-tg-${this.header.runId}`,
      results: { version: 3, timestamp: this.header.startedAt, prompts, stats: this.statsOut() },
      config: {
        description: `toolgauge run ${this.header.runId}`,
        prompts: prompts.map((p) => p.label),
        providers: this.header.providers.map((p) => ({ id: p.id, label: p.label })),
        tests: [],
      },
      metadata: {
        exportedAt: new Date().toISOString(),
        evaluationCreatedAt: this.header.startedAt,
        author: null,
        toolgauge: { runId: this.header.runId, version: this.header.toolgaugeVersion, format: this.header.format },
      },
      vars: ['case', 'prompt', 'repeat'],
    };
  }

  private statsOut() {
    return {
      successes: this.stats.successes,
      failures: this.stats.failures,
      errors: this.stats.errors,
      tokenUsage: { ...this.tokens, assertions: { total: 0, prompt: 0, completion: 0, cached: 0, numRequests: 0 } },
      durationMs: this.stats.durationMs,
    };
  }

  /** One promptfoo EvaluateResult for a record (call after every record was observed). */
  result(r: CaseRecord) {
    const column = this.column(r.renderer, r.provider);
    const first = r.transcript.turns[0]?.request;
    const userPrompt = first?.messages.find((m) => m.role === 'user')?.content ?? '';
    const vars = { case: `${r.suite}/${r.case}`, prompt: userPrompt, repeat: r.repeat };
    const assertion = (grader: string) => ({ type: 'javascript', value: `toolgauge:${grader}` });
    const componentResults = r.grades.map((g) => ({
      pass: g.pass,
      score: g.score,
      reason: `${g.grader}: ${g.reason}`,
      namedScores: { [g.grader]: g.score },
      assertion: assertion(g.grader),
    }));
    const namedScores = Object.fromEntries(r.grades.map((g) => [g.grader, g.score]));
    const pass = !r.error && r.grades.every((g) => g.pass);
    const failed = r.grades.filter((g) => !g.pass);
    const reason = r.error
      ? `${r.error.code}: ${r.error.message}`
      : failed.length
        ? failed.map((g) => `${g.grader}: ${g.reason}`).join('; ')
        : 'All assertions passed';
    const toolCalls = r.transcript.turns.flatMap((t) =>
      t.executed.map((e) => ({ id: e.callId, name: e.name, input: e.args, output: e.result, is_error: e.isError })),
    );
    return {
      id: sha256(r.key).slice(0, 32),
      promptIdx: column.idx,
      testIdx: this.testIdx(r),
      promptId: column.id,
      provider: { id: r.provider, label: r.provider },
      prompt: { raw: first ? `${first.system}\n\n${userPrompt}` : userPrompt, label: r.renderer },
      vars,
      testCase: {
        description: `${r.suite}/${r.case}${r.repeat ? ` #${r.repeat}` : ''}`,
        vars,
        assert: r.grades.map((g) => assertion(g.grader)),
        metadata: { toolgaugeKey: r.key },
      },
      response: {
        output: r.transcript.finalText,
        tokenUsage: { prompt: r.usage.input, completion: r.usage.output, total: r.usage.input + r.usage.output },
        metadata: {
          toolCalls,
          stopReason: r.transcript.stopReason,
          protocol: r.protocol,
          turns: r.transcript.turns.length,
        },
      },
      success: pass,
      score: r.error ? 0 : score(r),
      namedScores,
      gradingResult: r.error ? null : { pass, score: score(r), reason, namedScores, componentResults },
      latencyMs: r.durationMs,
      cost: 0,
      tokenUsage: {
        prompt: r.usage.input,
        completion: r.usage.output,
        cached: r.usage.cached ?? 0,
        total: r.usage.input + r.usage.output,
        numRequests: r.transcript.turns.length,
      },
      error: r.error ? reason : null,
      failureReason: r.error ? FAILURE.error : pass ? FAILURE.none : FAILURE.assert,
      metadata: { toolgaugeKey: r.key, simulated: r.simulated, catalogHash: r.catalogHash },
    };
  }
}

/** promptfoo scores a test as the mean of its assertion scores. */
function score(r: CaseRecord): number {
  if (r.grades.length === 0) return 1;
  return r.grades.reduce((s, g) => s + g.score, 0) / r.grades.length;
}
