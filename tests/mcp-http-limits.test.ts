import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { readRecords, runCli, runDirFrom } from './cli-helpers.js';

/** Bytes of text the `huge` tool answers with: over the 10 MiB a message toolgauge reads from a server. */
const HUGE_BYTES = 11 * 1024 * 1024;

/** A user's MCP server over Streamable HTTP (the SDK's, stateless): `small` answers a word, `huge` 11 MiB of text. */
function mcpServer(): Server {
  const server = new Server({ name: 'big-answers', version: '1.0.0' }, { capabilities: { tools: {} } });
  const noArgs = { type: 'object' as const, properties: {} };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'small', description: 'Answers one word.', inputSchema: noArgs },
      { name: 'huge', description: 'Answers with a very long text.', inputSchema: noArgs },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => ({
    content: [{ type: 'text', text: req.params.name === 'huge' ? 'x'.repeat(HUGE_BYTES) : 'fine' }],
  }));
  return server;
}

let http: HttpServer;
let url = '';
let dir = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-http-limits-'));
  http = createServer((req, res) => {
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const call = (id: string, tool: string) =>
  `  - id: ${id}\n    prompt: Use the ${tool} tool.\n    expect: { calls: [{ tool: ${tool}, args: {} }] }\n`;

describe('an MCP server over HTTP that answers with more than toolgauge reads (real CLI, real SDK server)', () => {
  it('the case is a TOOL_RESULT_TOO_LARGE infrastructure error naming the limit; the next case works', async () => {
    writeFileSync(
      join(dir, 'big.yaml'),
      `name: big\nservers:\n  big: { url: ${JSON.stringify(url)} }\ncases:\n${call('c1', 'small')}${call('c2', 'huge')}${call('c3', 'small')}`,
    );
    const config = join(dir, 'big.config.yaml');
    writeFileSync(
      config,
      [
        'suites: [big.yaml]',
        'renderers: [full-details]',
        'providers: [sim:oracle]',
        'concurrency: 1',
        'out: reports',
        'gate: { maxInfraErrorRate: 1 }',
        '',
      ].join('\n'),
    );
    const res = await runCli(['eval', '-c', config]);
    expect(res.code, res.stderr).toBe(0);
    const cases = new Map(
      readRecords(join(runDirFrom(res.stderr), 'run.jsonl'))
        .filter((r): r is CaseRecord => r.type === 'case')
        .map((c) => [c.case, c]),
    );
    expect(cases.get('c2')?.error).toEqual({
      code: 'TOOL_RESULT_TOO_LARGE',
      message:
        "MCP server 'big' answered huge with a response over the 10485760-byte (10 MiB) limit: the rest was not read and the session was closed (the next case opens a new one)",
    });
    for (const id of ['c1', 'c3']) {
      expect(cases.get(id)?.error, id).toBeUndefined();
      expect(cases.get(id)?.transcript.turns[0]?.executed[0]?.result, id).toBe('fine');
    }
  }, 60_000);
});
