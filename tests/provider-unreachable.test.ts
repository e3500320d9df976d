import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';

/** A loopback port nothing listens on (taken from the system, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a model server that is not there (real CLI, real SDK clients)', () => {
  it("each case's error names the socket's reason and the address, for every SDK; -q prints why", async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const common = { maxRetries: 0, timeoutMs: 20_000 };
    const { file } = writeConfig({
      suites: [join(FIXTURES, 'mini.yaml')],
      renderers: ['native-functions'],
      providers: [
        { id: 'openai-compatible:m', options: { ...common, baseURL: `${url}/v1` } },
        { id: 'anthropic:m', options: { ...common, baseURL: url } },
        { id: 'ollama:m', options: { ...common, baseURL: url, transport: 'node-http' } },
        // a port fetch refuses to dial (the fetch standard's blocked ports)
        { id: 'openai-compatible:m', label: 'blocked', options: { ...common, baseURL: 'http://127.0.0.1:6000/v1' } },
      ],
      gate: { maxInfraErrorRate: 0 },
    });
    const res = await runCliWithEnv(['eval', '-c', file, '-q'], { ANTHROPIC_API_KEY: 'sk-ant-test-000000' });
    expect(res.code, res.stderr).toBe(3);
    const runDir = runDirFrom(res.stderr);
    const all = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    expect(all).toHaveLength(12);
    for (const c of all.filter((x) => x.provider === 'blocked')) {
      expect(c.error?.message).toContain("(fetch failed: bad port: Node's fetch refuses this port");
      expect(c.error?.message).toContain('transport: node-http');
    }
    const cases = all.filter((c) => c.provider !== 'blocked');
    expect(cases).toHaveLength(9);
    const refused = `ECONNREFUSED 127.0.0.1:${port}`;
    for (const c of cases) {
      expect(c.error?.code, c.provider).toBe('PROVIDER_NETWORK');
      // was "Connection error. (fetch failed)": the reason was two causes deep
      expect(c.error?.message, c.provider).toContain(refused);
    }
    expect(readFileSync(join(runDir, 'summary.md'), 'utf8')).toContain(refused);
    // -q's brief summary says why too (was: only how many): the first three different errors
    const quoted = res.stdout.split('\n').filter((l) => l.startsWith('- '));
    expect(quoted, res.stdout).toHaveLength(3);
    expect(new Set(quoted).size).toBe(3);
    expect(quoted.filter((l) => l.includes(refused)).length, res.stdout).toBeGreaterThan(0);
    expect(res.stdout).toContain('## Infrastructure errors (12; the first different ones, all in summary.md)');
  });
});
