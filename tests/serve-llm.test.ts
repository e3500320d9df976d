import { request } from 'node:http';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuite } from '../src/config/load-suite.js';
import { ROOT, startCli } from './cli-helpers.js';

const excel = loadSuite(join(ROOT, 'suites', 'excel.yaml')).suite;
const readCase = excel.cases.find((c) => c.expect.calls?.[0]?.tool === 'read_data_from_excel');
const parameters = {
  type: 'object',
  properties: { filepath: { type: 'string' }, sheet_name: { type: 'string' }, start_cell: { type: 'string' } },
  required: ['filepath', 'sheet_name'],
};
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'read_data_from_excel', description: 'Read data from an Excel worksheet.', parameters },
  },
];

/** A raw request with the headers given as is (fetch would not let a test set Host). */
function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'hi' }] });
    const req = request(
      `${url}/v1/chat/completions`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('toolgauge serve llm', () => {
  let child: ReturnType<typeof startCli>;
  let client: OpenAI;
  let baseUrl: string;

  beforeAll(async () => {
    child = startCli(['serve', 'llm', '--port', '0']);
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening on (\S+)/.exec(stderr);
        if (m?.[1] && stderr.includes('recognised by their prompt')) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`serve llm exited (${code}): ${stderr}`)));
    });
    baseUrl = url;
    client = new OpenAI({ apiKey: 'sk-test-serve-llm', baseURL: `${url}/v1`, maxRetries: 0 });
  }, 60_000);

  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('sim:oracle recognises a bundled case by its prompt and makes the expected call (Chat Completions)', async () => {
    expect(readCase).toBeDefined();
    const expected = readCase!.expect.calls![0]!;
    const completion = await client.chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: readCase!.prompt }],
      tools,
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('read_data_from_excel');
    const args = JSON.parse(call?.type === 'function' ? call.function.arguments : '{}') as Record<string, unknown>;
    for (const [param, allowed] of Object.entries(expected.args ?? {})) {
      if (Array.isArray(allowed) && !allowed.includes('')) expect(allowed).toContainEqual(args[param]);
    }
  });

  it('the same through the Responses API; a prompt of no known case gets no call', async () => {
    const response = await client.responses.create({
      model: 'mock',
      input: readCase!.prompt,
      tools: [{ type: 'function', name: 'read_data_from_excel', parameters, strict: false }],
      store: false,
    });
    expect(response.output.filter((i) => i.type === 'function_call').map((i) => i.name)).toEqual([
      'read_data_from_excel',
    ]);
    const unknown = await client.chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: 'What is the capital of France?' }],
      tools,
    });
    expect(unknown.choices[0]?.message.tool_calls ?? []).toEqual([]);
  });

  it('refuses a Host that is not loopback with its port, and a browser Origin that is not loopback (DNS rebinding)', async () => {
    const port = new URL(baseUrl).port;
    const refusedHeaders: Record<string, string>[] = [
      { host: `evil.example:${port}` },
      { host: `127.0.0.1.evil.example:${port}` },
      { host: `127.0.0.1:${Number(port) + 1}` },
      { host: 'localhost' },
      { host: `localhost:${port}`, origin: 'http://evil.example' },
      { host: `localhost:${port}`, origin: 'null' },
    ];
    for (const headers of refusedHeaders) {
      const refused = await rawPost(baseUrl, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      const message = (JSON.parse(refused.body) as { error: { message: string } }).error.message;
      expect(message).toMatch(/^Forbidden: (Host|Origin) '.+'/);
      expect(message).toContain(`127.0.0.1:${port}`);
      expect(message).toContain('DNS rebinding');
    }
    const acceptedHeaders: Record<string, string>[] = [
      { host: `localhost:${port}` },
      { host: `[::1]:${port}` },
      { host: `127.0.0.1:${port}`, origin: 'http://localhost:5173' },
    ];
    for (const headers of acceptedHeaders) {
      expect((await rawPost(baseUrl, headers)).status, JSON.stringify(headers)).toBe(200);
    }
  });
});
