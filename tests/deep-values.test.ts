import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter } from '../src/run-log/schema.js';
import { depthExceeds } from '../src/util/json-depth.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { reportText } from './helpers/report-data.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/**
 * Values plain JavaScript handling chokes on or loses. A model's reply holding valid JSON nested thousands of levels deep (deeper than JSON.stringify can recurse) is
 * data: every run still finishes with its reports, and the call fails correct-arguments with a reason that says
 * why. Through the real CLI: offline grading of each call shape, a live eval and its --resume. And a `__proto__` key
 * is an ordinary key: arguments that differ by one are different calls.
 */

const LEVELS = 5000;
/** `{"a":{"a":…1…}}`, LEVELS deep, built as text (a value this deep cannot be JSON.stringify'd). */
const DEEP = `${'{"a":'.repeat(LEVELS)}1${'}'.repeat(LEVELS)}`;
const TOO_DEEP = 'nest 128 levels deep or more';

const work = tempDir('tg-deep-');

function cases(dir: string): CaseRecord[] {
  return readRecords(join(dir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
}

function grade(record: CaseRecord, grader: string) {
  return record.grades.find((g) => g.grader === grader);
}

function expectReports(dir: string): void {
  for (const f of ['run.json', 'report.html', 'summary.md', 'results.csv', 'junit.xml'])
    expect(existsSync(join(dir, f)), f).toBe(true);
}

/** Grades one JSONL line (raw text, so a deep value needs no serialising here) against the excel suite. */
async function gradeLine(name: string, line: string): Promise<CaseRecord> {
  const file = join(work, `${name}.jsonl`);
  writeFileSync(file, `${line}\n`);
  const res = await runCli(['grade', '--suite', 'excel', '--outputs', file, '--out', join(work, name), '-q']);
  expect(res.stderr).not.toContain('internal error');
  expect(res.code, res.stderr).toBe(0);
  const dir = runDirFrom(res.stderr);
  expectReports(dir);
  const [record] = cases(dir);
  expect(record?.error).toBeUndefined();
  return record as CaseRecord;
}

const toolCallText = `<tool_call>{"name":"read_data_from_excel","arguments":${DEEP}}</tool_call>`;

describe('grade: arguments nested 5,000 deep', () => {
  it.each([
    ['in <tool_call> text', JSON.stringify({ case: 'read-q1-en', output: toolCallText })],
    [
      'as bare JSON',
      JSON.stringify({ case: 'read-q1-en', output: `{"name":"read_data_from_excel","arguments":${DEEP}}` }),
    ],
    [
      'in an OpenAI tool_calls object written as text',
      JSON.stringify({
        case: 'read-q1-en',
        output: `{"tool_calls":[{"type":"function","function":{"name":"read_data_from_excel","arguments":${JSON.stringify(DEEP)}}}]}`,
      }),
    ],
    [
      'as a Llama 3.1 <function=…> body',
      JSON.stringify({ case: 'read-q1-en', output: `<function=read_data_from_excel>${DEEP}</function>` }),
    ],
    [
      'as native tool_calls with a JSON string',
      JSON.stringify({ case: 'read-q1-en', tool_calls: [{ name: 'read_data_from_excel', arguments: DEEP }] }),
    ],
  ])('%s: graded, correct-arguments fails saying the arguments nest too deep', async (name, line) => {
    const record = await gradeLine(name.replace(/\W+/g, '-'), line);
    const args = grade(record, 'correct-arguments');
    expect(args?.pass).toBe(false);
    expect(args?.reason).toContain(`called read_data_from_excel with arguments of read_data_from_excel ${TOO_DEEP}`);
    // the reason names the problem; it does not spell out 5,000 levels of arguments
    expect(args?.reason.length).toBeLessThan(500);
  });

  it('as native tool_calls with an object: the run finishes with its reports and the log keeps the value whole', async () => {
    const line = `{"case":"read-q1-en","tool_calls":[{"name":"read_data_from_excel","arguments":${DEEP}}]}`;
    const record = await gradeLine('native-object', line);
    expect(grade(record, 'correct-arguments')?.pass).toBe(false);
    const recorded = record.transcript.turns[0]?.response.toolCalls[0]?.arguments;
    expect(depthExceeds(recorded, LEVELS - 1)).toBe(true);
  });
});

/**
 * A model server written by hand, so that DEEP is only ever text here. `/v1/chat/completions` (OpenAI-compatible):
 * asked with tools it calls read_data_from_excel natively with DEEP as the arguments string, without them in
 * `<tool_call>` text. `/api/chat` (Ollama): the native call's arguments are DEEP itself, an object, as Ollama (and
 * Anthropic) send them, so the run log holds the value nested 5,000 deep.
 */
function deepModel(): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      // The follow-up request of a native call carries DEEP back as an object: read only what is needed, as text.
      const native = /"tools":\[\{/.test(body);
      const france = body.includes('France');
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.startsWith('/api/chat')) {
        const message = france
          ? '{"role":"assistant","content":"Paris."}'
          : native
            ? `{"role":"assistant","content":"","tool_calls":[{"function":{"name":"read_data_from_excel","arguments":${DEEP}}}]}`
            : `{"role":"assistant","content":${JSON.stringify(toolCallText)}}`;
        res.end(
          `{"model":"deep","created_at":"2026-01-01T00:00:00Z","message":${message},"done":true,"done_reason":"stop","prompt_eval_count":1,"eval_count":1}`,
        );
        return;
      }
      const call = `{"id":"call_1","type":"function","function":{"name":"read_data_from_excel","arguments":${JSON.stringify(DEEP)}}}`;
      const message = france
        ? '{"role":"assistant","content":"Paris."}'
        : native
          ? `{"role":"assistant","content":null,"tool_calls":[${call}]}`
          : `{"role":"assistant","content":${JSON.stringify(toolCallText)}}`;
      res.end(
        `{"id":"chatcmpl-1","object":"chat.completion","created":0,"model":"deep","choices":[{"index":0,"message":${message},"finish_reason":"${france ? 'stop' : native ? 'tool_calls' : 'stop'}"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`,
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const PROVIDERS = ['openai-compatible:deep', 'ollama:deep'];

describe('eval against a model that answers with arguments nested 5,000 deep', () => {
  let server: Server;
  let config = '';

  beforeAll(async () => {
    server = await deepModel();
    const port = (server.address() as AddressInfo).port;
    config = join(work, 'deep.config.yaml');
    writeFileSync(
      config,
      [
        `suites: [${JSON.stringify(join(FIXTURES, 'mini.yaml'))}]`,
        'renderers: [full-details, native-functions]',
        'providers:',
        `  - { id: '${PROVIDERS[0]}', options: { baseURL: 'http://127.0.0.1:${port}/v1', apiKeyEnv: TG_DEEP_KEY, maxRetries: 0 } }`,
        `  - { id: '${PROVIDERS[1]}', options: { baseURL: 'http://127.0.0.1:${port}', maxRetries: 0 } }`,
        'maxTurns: 2',
        'concurrency: 2',
        `out: ${JSON.stringify(join(work, 'eval'))}`,
      ].join('\n'),
    );
    process.env.TG_DEEP_KEY = 'sk-deep-values-test';
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('finishes with its reports, grades every case, and --resume reads the log back and finishes it', async () => {
    const res = await runCli(['eval', '-c', config, '--record', '-q']);
    expect(res.stderr).not.toContain('internal error');
    expect(res.code, res.stderr).toBe(0);
    const dir = runDirFrom(res.stderr);
    expectReports(dir);
    const all = cases(dir);
    expect(all).toHaveLength(12);
    for (const c of all) expect(c.error, c.key).toBeUndefined();
    for (const provider of PROVIDERS)
      for (const renderer of ['full-details', 'native-functions']) {
        const read = all.find((c) => c.key === `mini/read-sheet-zh|${renderer}|${provider}|0`) as CaseRecord;
        expect(grade(read, 'correct-arguments')?.reason, `${renderer} ${provider}`).toContain(
          `called read_data_from_excel with arguments of read_data_from_excel ${TOO_DEEP}`,
        );
      }
    const ollamaNative = all.find((c) => c.key === `mini/read-sheet-zh|native-functions|${PROVIDERS[1]}|0`);
    // kept as an object ~250 levels deep (redaction keeps what lies below as JSON text): deeper than a grader walks
    expect(depthExceeds(ollamaNative?.transcript.turns[0]?.response.toolCalls[0]?.arguments, 200)).toBe(true);
    expect(readFileSync(join(dir, 'cassettes.jsonl'), 'utf8')).toContain(JSON.stringify(DEEP).slice(1, 1000));

    // An interrupted run: the footer and the cases after the deep ones are gone. The log holds the deep value as an
    // object (the Ollama call's arguments) and as a string (the OpenAI-compatible call's, repeated in its wire
    // bodies: written once, packing rule d).
    const log = join(dir, 'run.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    // by the case's name: a packed record holds no `key` (docs/run-log.md)
    const isDeep = (l: string) => l.includes('"type":"case"') && l.includes('"case":"read-sheet-zh"');
    const kept = lines.filter((l) => l.includes('"type":"header"') || l.startsWith('{"type":"blob"') || isDeep(l));
    expect(kept.filter(isDeep)).toHaveLength(4);
    expect(kept.some((l) => l.includes(`"arguments":${'{"a":'.repeat(200)}`))).toBe(true);
    expect(kept.some((l) => l.includes(`"arguments":${JSON.stringify(DEEP)}`))).toBe(true);
    writeFileSync(log, `${kept.join('\n')}\n`);
    const resumed = await runCli(['eval', '--resume', dir, '-q']);
    expect(resumed.stderr).not.toContain('internal error');
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = readRecords(log);
    expect(after.filter((r) => r.type === 'case')).toHaveLength(12);
    expect(after.at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: false, completed: 12 });
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(reportText(html)).toContain(TOO_DEEP); // in the page's compressed case details
    // the deep value is in the drill-down, indented only so far: not megabytes of spaces
    expect(html.length).toBeLessThan(5_000_000);
  });
});

describe('arguments with a key named __proto__', () => {
  it('are not the same call as the arguments without it (grade, two turns)', async () => {
    const call = (args: string) => `<tool_call>{"name":"get_workbook_metadata","arguments":${args}}</tool_call>`;
    const result = { name: 'get_workbook_metadata', result: 'Sheets: Q1, Q2, Summary' };
    const line = JSON.stringify({
      case: 'metadata-sales-en',
      turns: [
        { output: call('{"filepath":"sales.xlsx","__proto__":"x"}'), results: [result] },
        { output: call('{"filepath":"sales.xlsx"}'), results: [result] },
        { output: 'sales.xlsx has the sheets Q1, Q2 and Summary.' },
      ],
    });
    const record = await gradeLine('proto-key', line);
    // the second call is the expected one; the first, with its extra key, is a call of its own
    const reason = grade(record, 'correct-arguments')?.reason;
    expect(reason).toBe("unexpected extra call get_workbook_metadata(filepath='sales.xlsx', __proto__='x')");
  });
});
