import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';

/** Chat Completions messages that break the API's shape, one per request, in turn. */
const MESSAGES = [
  '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":null,"arguments":"{}"}}]}',
  '{"role":"assistant","content":123}',
  '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_workbook_metadata","arguments":null}}]}',
];

describe('a model server whose reply breaks its API (real CLI, real openai SDK client)', () => {
  it("each case is one PROVIDER_BAD_RESPONSE naming the field, never toolgauge's INTERNAL error", async () => {
    let n = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const message = MESSAGES[n++ % MESSAGES.length];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          `{"id":"r${n}","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":${message}}]}`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const { file } = writeConfig({
      suites: [join(FIXTURES, 'mini.yaml')],
      renderers: ['native-functions'],
      providers: [{ id: 'openai-compatible:m', options: { baseURL: url, maxRetries: 2, retryBaseMs: 1 } }],
      concurrency: 1,
      gate: { maxInfraErrorRate: 1 },
    });
    let res: Awaited<ReturnType<typeof runCliWithEnv>>;
    try {
      res = await runCliWithEnv(['eval', '-c', file, '-q'], {});
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(res.code, res.stderr).toBe(0);
    const errors = readRecords(join(runDirFrom(res.stderr), 'run.jsonl'))
      .filter((r): r is CaseRecord => r.type === 'case')
      .map((c) => c.error);
    expect(errors).toEqual(
      expect.arrayContaining([
        {
          code: 'PROVIDER_BAD_RESPONSE',
          message: "provider openai-compatible:m: the reply's tool call 1 has no name (null)",
        },
        {
          code: 'PROVIDER_BAD_RESPONSE',
          message: "provider openai-compatible:m: the reply's text is number, not a string",
        },
        {
          code: 'PROVIDER_BAD_RESPONSE',
          message:
            "provider openai-compatible:m: the reply's tool call 1 (get_workbook_metadata) has arguments that are neither text nor an object",
        },
      ]),
    );
    expect(errors).toHaveLength(3);
    // one request per case: a reply that breaks the API is not asked for again
    expect(n).toBe(3);
  });
});
