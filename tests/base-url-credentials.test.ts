import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmMockHandle, type RecordedRequest, startLlmMock } from '../mock-servers/llm/index.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';
import { suiteOracleResponder } from './fixtures/providers-mock/oracle-responder.js';
import { reportText } from './helpers/report-data.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const SUITE = join(FIXTURES, 'mini.yaml');
const PREFIX = 'tgbaseurl';
const canary = (name: string) => `${PREFIX}${name}${randomBytes(8).toString('hex')}`;
const C = {
  password: canary('pass'),
  openaiKey: canary('openaikey'),
  anthropicKey: canary('antkey'),
  queryOpenai: canary('qopenai'),
  queryChat: canary('qchat'),
  queryResponses: canary('qresp'),
  queryAnthropic: canary('qant'),
  queryOllama: canary('qollama'),
};
/** The password as written in the URL (`/` percent-encoded) and as the Basic credential carries it (decoded). */
const PASSWORD_IN_URL = `${C.password}%2Fx`;
const BASIC = `Basic ${Buffer.from(`tg user:${C.password}/x`).toString('base64')}`;

let mock: LlmMockHandle;
const tempDir = useTempDirs();
beforeAll(async () => {
  mock = await startLlmMock({ responder: suiteOracleResponder([SUITE]) });
  runConfig = credentialConfig();
});
afterAll(async () => {
  await mock?.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** The config the run and the doctor use (made once the mock listens). */
let runConfig = '';

/** The requests the mock got for one model (each provider of the run has its own). */
const requestsOf = (model: string): RecordedRequest[] => mock.requests.filter((r) => r.neutral?.model === model);

/** A config with a provider of each kind whose baseURL carries a query, and most a userinfo. */
function credentialConfig(): string {
  const host = new URL(mock.url).host;
  const withUser = `http://tg%20user:${PASSWORD_IN_URL}@${host}`;
  const common = { maxRetries: 0, timeoutMs: 20_000 };
  const { file } = writeConfig(
    {
      suites: [SUITE],
      renderers: ['native-functions'],
      providers: [
        { id: 'openai:q', options: { ...common, baseURL: `${mock.url}/v1?key=${C.queryOpenai}&region=eu` } },
        {
          id: 'openai-compatible:chat',
          options: { ...common, stream: true, baseURL: `${withUser}/v1?key=${C.queryChat}&region=eu` },
        },
        {
          id: 'openai-compatible:responses',
          options: { ...common, api: 'responses', baseURL: `${withUser}/v1/?key=${C.queryResponses}&region=eu#top` },
        },
        {
          id: 'anthropic:a',
          options: { ...common, stream: true, baseURL: `${mock.url}?key=${C.queryAnthropic}&region=eu` },
        },
        { id: 'ollama:o', options: { ...common, baseURL: `${withUser}/?key=${C.queryOllama}&region=eu` } },
      ],
    },
    'tg-prov-',
    tempDir('tg-prov-'),
  );
  return file;
}

describe('a baseURL with userinfo and a query, through the real SDK clients (real CLI, wire mock)', () => {
  it('the userinfo goes as Basic authorization, the query rides on every request, neither is written anywhere', async () => {
    const res = await runCliWithEnv(['eval', '-c', runConfig, '--record'], {
      OPENAI_API_KEY: C.openaiKey,
      ANTHROPIC_API_KEY: C.anthropicKey,
    });
    expect(res.code, res.stderr).toBe(0);
    const runDir = runDirFrom(res.stderr);
    const cases = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(15);
    expect(cases.filter((c) => c.error).map((c) => `${c.provider}: ${c.error?.message}`)).toEqual([]);

    // What each server saw: the API's own path, the base URL's query, the credential where it belongs.
    const expected: [string, string, string, Record<string, string>][] = [
      ['q', '/v1/chat/completions', C.queryOpenai, { authorization: `Bearer ${C.openaiKey}` }],
      ['chat', '/v1/chat/completions', C.queryChat, { authorization: BASIC }],
      ['responses', '/v1/responses', C.queryResponses, { authorization: BASIC }],
      ['a', '/v1/messages', C.queryAnthropic, { authorization: `Bearer ${C.anthropicKey}` }],
      ['o', '/api/chat', C.queryOllama, { authorization: BASIC }],
    ];
    for (const [model, path, key, headers] of expected) {
      const got = requestsOf(model);
      expect(got.length, model).toBeGreaterThanOrEqual(3);
      for (const r of got) {
        expect(r.path, model).toBe(path);
        expect([...new URLSearchParams(r.query)], model).toEqual([
          ['key', key],
          ['region', 'eu'],
        ]);
        for (const [name, value] of Object.entries(headers)) expect(r.headers[name], `${model} ${name}`).toBe(value);
      }
    }

    const files = filesUnder(runDir);
    expect(files.map((f) => f.slice(runDir.length + 1))).toEqual(
      expect.arrayContaining(['run.jsonl', 'summary.md', 'report.html', 'results.csv', 'run.json', 'cassettes.jsonl']),
    );
    const secrets = { ...C, basic: BASIC.slice('Basic '.length) };
    for (const f of files) {
      const text = f.endsWith('report.html') ? reportText(readFileSync(f, 'utf8')) : readFileSync(f, 'latin1');
      for (const [what, secret] of Object.entries(secrets)) {
        expect(text.includes(secret), `the ${what} credential leaked into ${f}`).toBe(false);
      }
    }
    expect(res.stdout + res.stderr).not.toContain(PREFIX);
  });

  it('userinfo beside an API key sent as a bearer token is refused, naming both, quoting neither', async () => {
    const host = new URL(mock.url).host;
    const { file } = writeConfig({
      suites: [SUITE],
      renderers: ['native-functions'],
      providers: [{ id: 'openai:both', options: { baseURL: `http://tguser:${PASSWORD_IN_URL}@${host}/v1` } }],
    });
    const sentBefore = mock.requests.length;
    const res = await runCliWithEnv(['eval', '-c', file], { OPENAI_API_KEY: C.openaiKey });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'provider openai:both: option baseURL carries a user:password@ credential, sent as the Authorization header, which the API key from OPENAI_API_KEY takes too; keep one of them',
    );
    expect(res.stdout + res.stderr).not.toContain(PREFIX);
    expect(mock.requests.length).toBe(sentBefore);
  });

  it('doctor reaches each server as its provider does, and prints no credential', async () => {
    const res = await runCliWithEnv(['doctor', '-c', runConfig], {
      OPENAI_API_KEY: C.openaiKey,
      ANTHROPIC_API_KEY: C.anthropicKey,
    });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    for (const id of ['openai:q', 'openai-compatible:chat', 'openai-compatible:responses', 'anthropic:a', 'ollama:o']) {
      expect(res.stdout).toMatch(
        new RegExp(`^ok +provider ${id}: server http://127\\.0\\.0\\.1:\\d+(/v1)? answers`, 'm'),
      );
    }
    // The probes went as the provider's requests go: the query kept, the userinfo as Basic authorization.
    const probes = mock.requests.filter((r) => r.method === 'GET');
    const probe = (key: string) => probes.find((r) => new URLSearchParams(r.query).get('key') === key);
    expect(probe(C.queryChat)).toMatchObject({ path: '/v1/models', headers: { authorization: BASIC } });
    expect(probe(C.queryOllama)).toMatchObject({ path: '/api/tags', headers: { authorization: BASIC } });
    expect(res.stdout + res.stderr).not.toContain(PREFIX);
  });
});
