// A provider plugin for the gate's simulations: each trial of a case answers correctly with the case's probability
// (tests/helpers/bernoulli-model.ts), seeded by the run's seed, the case and the repeat. A real model's randomness is
// not part of the configuration: set TG_BERNOULLI_DRAW to draw from that number instead of the run's seed, so two runs
// of the same configuration with different draws are two independent runs of the same model (an A/A pair, the same
// config hash). Options: p, spread, sticky, thin, broken, stream.
// The suite it answers has one tool, `pick`, whose right argument is n = 1: a right answer calls pick(n=1), a wrong
// one pick(n=2), in the xml-tags protocol.
import type { ModelRequest, ModelResponse, Provider } from '../../src/contracts/index.js';
import { type BernoulliOptions, trialPasses } from './bernoulli-model.js';

function num(v: unknown, name: string, fallback?: number): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new Error(`bernoulli provider: option ${name} must be a number`);
  return v;
}

export function provider(options: Record<string, unknown>): Provider {
  const o: BernoulliOptions = {
    p: num(options.p, 'p'),
    spread: num(options.spread, 'spread', 0),
    sticky: num(options.sticky, 'sticky', 0),
    thin: num(options.thin, 'thin', 0),
    broken: num(options.broken, 'broken', 0),
    stream: String(options.stream ?? ''),
  };
  const draw = process.env.TG_BERNOULLI_DRAW;
  return {
    id: 'bernoulli',
    kind: 'sim',
    simulated: true,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      signal?.throwIfAborted();
      const { seed, caseId, repeat } = request.meta;
      const n = trialPasses(o, draw === undefined ? seed : Number(draw), caseId, repeat) ? 1 : 2;
      const text = `<tool_call>{"name": "pick", "arguments": {"n": ${n}}}</tool_call>`;
      return { text, toolCalls: [], finishReason: 'stop', latencyMs: 0, raw: { request: null, response: { text } } };
    },
  };
}

/** The suite the provider answers: `cases` single-call cases on one inline tool. */
export function bernoulliSuite(cases: number): string {
  const lines = [
    'name: coin',
    'tools:',
    '  - name: pick',
    '    description: Pick a number.',
    '    inputSchema: { type: object, properties: { n: { type: integer } }, required: [n] }',
    'cases:',
  ];
  for (let i = 0; i < cases; i++) {
    lines.push(`  - id: c${String(i).padStart(4, '0')}`, `    prompt: Pick the number one (${i}).`);
    lines.push('    expect: { calls: [{ tool: pick, args: { n: [1] } }] }', '    results: { pick: "ok" }');
  }
  return `${lines.join('\n')}\n`;
}
