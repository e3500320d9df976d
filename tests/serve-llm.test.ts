import { request } from 'node:http';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ProviderEntrySchema } from '../src/config/config-schema.js';
import { loadSuite, wholeSuite } from '../src/config/load-suite.js';
import { finished, ROOT, runCli, startCli } from './cli-helpers.js';

const excel = wholeSuite(loadSuite(join(ROOT, 'suites', 'excel.yaml')));
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
  let banner: string;

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
    banner = stderr;
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

  it('prints a provider entry per wire protocol that works as printed through the real SDK clients', async () => {
    const entries = banner
      .split('\n')
      .filter((line) => line.includes(' POST '))
      .map((line) => {
        const flow = /(\{ id: .* \} \})/.exec(line)?.[1];
        expect(flow, line).toBeDefined();
        const entry = ProviderEntrySchema.parse(parseYaml(flow!));
        if (typeof entry === 'string') throw new Error(`not an entry with options: ${line}`);
        return { id: entry.id, baseURL: String(entry.options?.baseURL), api: entry.options?.api, line };
      });
    expect(entries.map((e) => `${e.id.split(':')[0]}${e.api ? ` ${String(e.api)}` : ''}`)).toEqual([
      'openai-compatible',
      'openai-compatible responses',
      'anthropic',
      'ollama',
    ]);
    const prompt = readCase!.prompt;
    for (const e of entries) {
      const model = e.id.slice(e.id.indexOf(':') + 1);
      let called: string[];
      if (e.id.startsWith('openai-compatible:') && e.api === 'responses') {
        const sdk = new OpenAI({ apiKey: 'no-key', baseURL: e.baseURL, maxRetries: 0 });
        const r = await sdk.responses.create({
          model,
          input: prompt,
          tools: [{ type: 'function', name: 'read_data_from_excel', parameters, strict: false }],
          store: false,
        });
        called = r.output.flatMap((i) => (i.type === 'function_call' ? [i.name] : []));
      } else if (e.id.startsWith('openai-compatible:')) {
        const sdk = new OpenAI({ apiKey: 'no-key', baseURL: e.baseURL, maxRetries: 0 });
        const r = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], tools });
        called = (r.choices[0]?.message.tool_calls ?? []).flatMap((c) =>
          c.type === 'function' ? [c.function.name] : [],
        );
      } else if (e.id.startsWith('anthropic:')) {
        expect(e.line).toContain('ANTHROPIC_API_KEY');
        const sdk = new Anthropic({ apiKey: 'any-value', baseURL: e.baseURL, maxRetries: 0 });
        const r = await sdk.messages.create({
          model,
          max_tokens: 256,
          messages: [{ role: 'user', content: prompt }],
          tools: [{ name: 'read_data_from_excel', input_schema: parameters as Anthropic.Tool.InputSchema }],
        });
        called = r.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : []));
      } else {
        // The ollama provider hands its baseURL option to the client as `host`.
        const sdk = new Ollama({ host: e.baseURL });
        const r = await sdk.chat({
          model,
          messages: [{ role: 'user', content: prompt }],
          tools: [{ type: 'function', function: { name: 'read_data_from_excel', parameters } }],
        });
        called = (r.message.tool_calls ?? []).map((c) => c.function.name);
      }
      expect(called, e.line).toEqual(['read_data_from_excel']);
    }
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

describe('toolgauge serve llm --persona', () => {
  it('takes the persona with or without its sim: prefix', async () => {
    for (const persona of ['sim:guesser', 'guesser']) {
      const child = startCli(['serve', 'llm', '--port', '0', '--persona', persona]);
      const done = finished(child);
      let stderr = '';
      await new Promise<void>((resolve) => {
        child.stderr?.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes('recognised by their prompt')) resolve();
        });
        child.on('exit', () => resolve());
      });
      child.kill('SIGTERM');
      const result = await done;
      expect(stderr, persona).toContain('answers come from the simulated persona sim:guesser;');
      expect(result.code, stderr).toBe(0);
    }
  }, 60_000);

  it('names the valid personas for an unknown one (usage error, exit 2)', async () => {
    const result = await runCli(['serve', 'llm', '--port', '0', '--persona', 'sim:nobody']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown simulated persona "sim:nobody"');
    expect(result.stderr).not.toContain('sim:sim:');
    expect(result.stderr).toContain(
      'valid: sim:oracle, sim:guesser, sim:fence-wrapper, sim:stopper, sim:noisy, sim:selector, sim:detour',
    );
  }, 60_000);
});
