import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toResponse } from '../../providers/simulated/reply-writer.js';
import type { Message, ModelRequest, NativeCall, Protocol } from '../contracts/model.js';
import type { ObservedState } from '../contracts/state.js';
import type { ToolExecution, Transcript, Turn } from '../contracts/transcript.js';
import { feedbackMessages } from '../runner/feedback.js';
import { seededRandom } from '../util/rng.js';
import { readRunLog } from './reader.js';
import type { CaseRecord, RunHeader, RunRecord } from './schema.js';
import { RunLogWriter } from './writer.js';

const SEED = 3;
const header: RunHeader = {
  type: 'header',
  format: 'toolgauge.run/2',
  runId: 'conversations',
  toolgaugeVersion: '0.1.0',
  startedAt: '2026-01-01T00:00:00.000Z',
  gitCommit: null,
  configFile: 'toolgauge.yaml',
  config: { suites: ['s.yaml'], seed: SEED },
  strategies: [{ label: 'full-details', name: 'full-details', options: {} }],
  providers: [{ label: 'sim:oracle', id: 'sim:oracle', simulated: true }],
  suites: [{ name: 'conv', file: 's.yaml', cases: 1 }],
  plannedCases: 1,
};

const SYSTEM = `You set simulation parameters.\n\n${'- set_parameter(parameter_name, value)\n'.repeat(4)}`;
const TOOLS = [
  {
    name: 'set_parameter',
    description: 'Set one parameter.',
    parameters: { type: 'object', properties: { parameter_name: { type: 'string' }, value: { type: 'number' } } },
    target: { server: 'economist', tool: 'set_parameter' },
  },
];

/**
 * A conversation's record as the runner writes it (conversation.ts): several user messages, each answered by one or
 * more model turns tagged with `userTurn`, the answer and the next message between them, and the observed state.
 */
function conversationRecord(i: number): CaseRecord {
  const rand = seededRandom('conversation-records', i);
  const protocol: Protocol = (['native', 'xml-tags', 'json'] as const)[i % 3] as Protocol;
  const caseId = `conv-${i % 5}`;
  const first: Omit<ModelRequest, 'oracle'> = {
    system: SYSTEM,
    messages: [{ role: 'user', content: `Set the income tax rate to 0.${i % 9}.` }],
    ...(protocol === 'native' ? { tools: TOOLS } : {}),
    protocol,
    meta: { caseId: `conv/${caseId}`, repeat: 0, seed: SEED, renderer: 'full-details', turn: 0 },
  };
  const turns: Turn[] = [];
  let messages: Message[] = [...first.messages];
  const userTurns = 2 + (i % 2);
  let finalText = '';
  for (let u = 0; u < userTurns; u++) {
    if (u > 0)
      messages = [...messages, { role: 'assistant', content: finalText }, { role: 'user', content: `And then ${u}?` }];
    const calls = 1 + Math.floor(rand() * 2);
    for (let n = 0; n <= calls; n++) {
      const index = turns.length;
      const request = { ...first, messages: [...messages], meta: { ...first.meta, turn: index } };
      const answer = n === calls;
      const native: NativeCall[] = [];
      let text = answer ? `Done (${u}).` : '';
      if (!answer) {
        const args = JSON.stringify({ parameter_name: 'vat_rate', value: u + n });
        if (protocol === 'native') native.push({ id: `call_${index + 1}`, name: 'set_parameter', arguments: args });
        else text = `<tool_call>{"name": "set_parameter", "arguments": ${args}}</tool_call>`;
      }
      const response = toResponse(request as ModelRequest, { text, toolCalls: native }, { honorStop: false });
      const executed: ToolExecution[] = answer
        ? []
        : [
            {
              callId: protocol === 'native' ? `call_${index + 1}` : `call_${index + 1}_1`,
              name: 'set_parameter',
              server: 'economist',
              tool: 'set_parameter',
              args: { parameter_name: 'vat_rate', value: u + n },
              result: `{"success": true, "new_value": ${u + n}}`,
              isError: false,
              durationMs: rand(),
            },
          ];
      turns.push({
        index,
        userTurn: u,
        request,
        response,
        parse: { calls: [], diagnostics: [] },
        executed,
      });
      if (answer) finalText = text;
      else messages = [...messages, ...feedbackMessages(protocol, response.text, response.toolCalls, executed)];
    }
  }
  const state: ObservedState = {
    views: [
      { server: 'economist', path: ['parameters', 'vat_rate'], found: true, value: userTurns },
      { server: 'economist', path: ['presets', 'mine'], found: false },
      ...(i % 4 === 0 ? [{ server: 'other', path: ['x'], found: false, error: 'publishes no state view' }] : []),
    ],
    probes:
      i % 2 ? [{ server: 'economist', tool: 'get_parameter', args: { n: 'vat' }, result: '0.2', isError: false }] : [],
  };
  const transcript: Transcript = { turns, finalText, stopReason: 'answered', state };
  // a transcript whose fields are in another order is written whole, never misread
  const shaped: Transcript = i % 7 === 6 ? { state, turns, finalText, stopReason: 'answered' } : transcript;
  const usage: CaseRecord['usage'] = { input: 0, output: 0, cached: 0 };
  for (const t of turns) {
    usage.input += t.response.usage?.input ?? 0;
    usage.output += t.response.usage?.output ?? 0;
  }
  return {
    type: 'case',
    key: `conv/${caseId}|full-details|sim:oracle|0`,
    suite: 'conv',
    case: caseId,
    renderer: 'full-details',
    provider: 'sim:oracle',
    simulated: true,
    repeat: 0,
    protocol,
    catalogHash: 'h',
    promptTokens: 10,
    transcript: shaped,
    grades: [{ grader: 'final-state', pass: true, score: 1, reason: 'all 2 expected fact(s) held' }],
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    usage,
  };
}

describe('run log: conversation records', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-conv-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('read back exactly as written (user turns, the messages between them, the observed state), packed', async () => {
    const records = Array.from({ length: 40 }, (_, i) => conversationRecord(i));
    const file = join(dir, 'run.jsonl');
    const w = new RunLogWriter(file, 'create');
    for (const r of [header, ...records]) w.write(r);
    w.close();
    const read: RunRecord[] = [];
    for await (const r of readRunLog(file)) read.push(r);
    const cases = read.slice(1);
    expect(cases.length).toBe(records.length);
    for (const [i, r] of records.entries()) expect(JSON.stringify(cases[i]), `record ${i}`).toBe(JSON.stringify(r));
    const written = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"type":"case"'))
      .map((l) => JSON.parse(l) as { packed?: string; transcript: { turns: { request: Record<string, unknown> }[] } });
    // packed as one-message records are: meta, envelope, fed-back messages and final text left out
    expect(written.every((l) => ['m', 's', 'c', 'f'].every((rule) => l.packed?.includes(rule)))).toBe(true);
    // the first model turn of a later user message keeps only what it adds: the answer and the new message
    const next = written[0]?.transcript.turns.find((t) => t.request.priorMessages !== undefined);
    expect(next?.request.messages).toHaveLength(2);
  });
});
