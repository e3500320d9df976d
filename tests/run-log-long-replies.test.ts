import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { readRecords, runCli, runDirFrom } from './cli-helpers.js';

/*
 * A provider plugin that answers like a real API: each turn's raw wire request holds the whole conversation (the
 * system prompt, every earlier reply and tool result, the tools) and its raw wire response holds the reply again.
 * Every reply is long (REPLY_CHARS). Case `three` takes 3 turns, case `six` 6: a call per turn, then an answer.
 */
const REPLY_CHARS = 50_000;
const PROVIDER = `
import type { ModelRequest, ModelResponse, Provider } from 'toolgauge';

const wire = (m: ModelRequest['messages'][number]) =>
  m.role === 'tool'
    ? { role: 'tool', tool_call_id: m.toolCallId, content: m.content }
    : m.role === 'assistant' && m.toolCalls?.length
      ? { role: 'assistant', content: m.content, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
      : { role: m.role, content: m.content };

export const provider: Provider = {
  id: 'long-replies',
  kind: 'openai-compatible',
  simulated: false,
  async generate(request: ModelRequest): Promise<ModelResponse> {
    const turns = request.meta.caseId.endsWith('/six') ? 6 : 3;
    const turn = request.meta.turn;
    const text = \`\${request.meta.caseId} turn \${turn}: \` + \`line \${turn} of a long reply. \`.repeat(${REPLY_CHARS / 25});
    const toolCalls = turn < turns - 1 ? [{ id: \`call_\${turn}\`, name: 'note', arguments: JSON.stringify({ n: turn }) }] : [];
    const calls = toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
    return {
      text,
      toolCalls,
      finishReason: toolCalls.length ? 'tool_calls' : 'stop',
      usage: { input: 1000 * (turn + 1), output: 30000 },
      latencyMs: 5,
      raw: {
        request: {
          model: 'long-1',
          messages: [{ role: 'system', content: request.system }, ...request.messages.map(wire)],
          tools: (request.tools ?? []).map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
        },
        response: {
          id: \`cmpl-\${turn}\`,
          choices: [{ index: 0, message: { role: 'assistant', content: text, tool_calls: calls }, finish_reason: 'stop' }],
        },
      },
    };
  },
};
`;

const SUITE = `name: long
tools:
  - name: note
    description: Write a note down.
    inputSchema: { type: object, properties: { n: { type: integer } }, required: [n] }
cases:
  - id: three
    prompt: Take notes, then answer.
    expect: { calls: [{ tool: note, args: { n: [0] } }] }
    results: { note: noted }
  - id: six
    prompt: Take notes, then answer.
    expect: { calls: [{ tool: note, args: { n: [0] } }] }
    results: { note: noted }
`;

describe('the run log of long multi-turn conversations with a real-like provider', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tg-long-replies-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('grows linearly with what the conversation holds, and reads back exactly (report, regrade, replay)', async () => {
    writeFileSync(join(dir, 'long-replies.ts'), PROVIDER);
    writeFileSync(join(dir, 'long.yaml'), SUITE);
    writeFileSync(
      join(dir, 'long.config.yaml'),
      'suites: [long.yaml]\nrenderers: [native-functions]\nproviders: [./long-replies.ts]\nmaxTurns: 6\nout: reports\n',
    );
    const res = await runCli(['eval', '-c', join(dir, 'long.config.yaml'), '-q']);
    expect(res.code, res.stderr).not.toBe(3);
    const runDir = runDirFrom(res.stderr);
    const log = join(runDir, 'run.jsonl');

    // each case's line, against the reply text its conversation holds
    const lines = readFileSync(log, 'utf8').split('\n');
    const records = readRecords(log).filter((r): r is CaseRecord => r.type === 'case');
    const size: Record<string, { line: number; content: number; turns: number }> = {};
    for (const r of records) {
      const line = lines.find((l) => l.includes('"type":"case"') && l.includes(`"case":"${r.case}"`)) as string;
      const content = r.transcript.turns.reduce((n, t) => n + t.response.text.length, 0);
      size[r.case] = { line: Buffer.byteLength(line), content, turns: r.transcript.turns.length };
    }
    expect(size.three?.turns).toBe(3);
    expect(size.six?.turns).toBe(6);
    for (const s of Object.values(size)) expect(s.line).toBeLessThan(1.5 * s.content);
    // twice the turns, about twice the log (the square of the turns would be 3.5 times)
    expect((size.six?.line ?? 0) / (size.three?.line ?? 1)).toBeLessThan(2.5);

    // read back exactly: the last raw request holds the whole conversation, each reply's wire body its text
    const six = records.find((r) => r.case === 'six') as CaseRecord;
    const last = six.transcript.turns[5];
    const wire = last?.response.raw.request as { messages: { role: string; content: string | null }[] };
    expect(wire.messages).toHaveLength(1 + 1 + 2 * 5);
    expect(wire.messages[0]?.content).toBe(last?.request.system);
    for (let t = 0; t < 5; t++) {
      const turn = six.transcript.turns[t];
      expect(wire.messages[2 + 2 * t]?.content).toBe(turn?.response.text);
      const body = turn?.response.raw.response as { choices: { message: { content: string } }[] };
      expect(body.choices[0]?.message.content).toBe(turn?.response.text);
    }

    // the readers that use the records whole: the reports, regrade, replay from the exchanges the log holds
    expect(readdirSync(runDir)).toContain('report.html');
    const regraded = await runCli(['regrade', runDir, '--out', join(dir, 'regraded')]);
    expect(regraded.code, regraded.stderr).not.toBe(3);
    expect(regraded.stderr).toContain('2 records regraded');
    const replayed = await runCli(['replay', runDir, '-q']);
    expect(replayed.code, replayed.stderr).not.toBe(3);
    const again = readRecords(join(runDirFrom(replayed.stderr), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    expect(again.map((r) => [r.case, r.transcript.turns.length, r.error])).toEqual(
      records.map((r) => [r.case, r.transcript.turns.length, undefined]),
    );
  }, 120_000);
});
