import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type LlmMockHandle, startLlmMock } from '../mock-servers/llm/index.js';
import type { CaseRecord, RunHeader } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';
import { suiteOracleResponder } from './fixtures/providers-mock/oracle-responder.js';
import { reportText } from './helpers/report-data.js';

const SUITE = join(FIXTURES, 'mini.yaml');
const PREFIX = 'tgcanary';
const canary = (name: string) => `${PREFIX}${name}${randomBytes(10).toString('hex')}`;
/** A credential in every place a config can carry one (none of them an API key read from the environment). */
const C = {
  authorization: canary('auth'),
  xApiKey: canary('xapikey'),
  customToken: canary('xtoken'),
  unnamedHeader: canary('xcustom'),
  userinfoPass: canary('pass'),
  queryKey: canary('qkey'),
  queryApiKey: canary('qapikey'),
  envBaseUrlToken: canary('envtoken'),
  pluginApiKey: canary('pluginkey'),
  simApiKey: canary('simkey'),
};

/**
 * A provider plugin that takes an `apiKey` option and is careless with it: its errors quote the key (as some APIs
 * do), and it answers the irrelevance case with the key in its reply.
 */
const LEAKY_PLUGIN = `
export function provider(options) {
  return {
    id: 'leaky-plugin',
    kind: 'sim',
    simulated: false,
    async generate(request) {
      const prompt = request.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join(' ');
      if (prompt.includes('capital of France')) {
        return { text: 'Paris (called with key ' + options.apiKey + ')', toolCalls: [], finishReason: 'stop', latencyMs: 1 };
      }
      throw new Error('upstream refused key ' + options.apiKey);
    },
  };
}
`;

let mock: LlmMockHandle;

beforeAll(async () => {
  mock = await startLlmMock({ responder: suiteOracleResponder([SUITE]) });
});
afterAll(async () => {
  await mock?.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('credentials in provider options never reach what a run writes (real CLI, wire mock)', () => {
  it('headers, baseURL userinfo and query, an apiKey option, a base URL from the environment', async () => {
    const host = new URL(mock.url).host;
    const common = { maxRetries: 0, timeoutMs: 20_000 };
    const { dir, file } = writeConfig({
      suites: [SUITE],
      renderers: ['native-functions'],
      providers: [
        {
          id: 'openai-compatible:headers',
          options: {
            ...common,
            baseURL: `${mock.url}/v1`,
            headers: {
              Authorization: `Bearer ${C.authorization}`,
              'X-Api-Key': C.xApiKey,
              'X-Portal-Token': C.customToken,
              'X-Custom': C.unnamedHeader,
              'X-Title': 'toolgauge',
            },
          },
        },
        {
          id: 'openai-compatible:userinfo',
          options: { ...common, baseURL: `http://tguser:${C.userinfoPass}@${host}/v1` },
        },
        {
          id: 'openai-compatible:query',
          options: { ...common, baseURL: `${mock.url}/v1?key=${C.queryKey}&api_key=${C.queryApiKey}&region=eu` },
        },
        { id: 'openai:env-base-url', options: common },
        { id: './leaky-provider.mjs', options: { apiKey: C.pluginApiKey } },
        { id: 'sim:oracle', options: { apiKey: C.simApiKey } },
      ],
      gate: { maxInfraErrorRate: 1 },
    });
    writeFileSync(join(dir, 'leaky-provider.mjs'), LEAKY_PLUGIN);
    const res = await runCliWithEnv(['eval', '-c', file, '--record'], {
      OPENAI_API_KEY: 'sk-not-a-canary-0000',
      // (a userinfo here would be refused: openai: sends its key in the Authorization header a userinfo needs)
      OPENAI_BASE_URL: `http://${host}/v1?token=${C.envBaseUrlToken}`,
    });
    expect(res.code, res.stderr).toBe(0);
    const runDir = runDirFrom(res.stderr);

    // The header credentials really travelled (so the run exercised them)…
    const sent = JSON.stringify(mock.requests.map((r) => r.headers));
    for (const secret of [C.authorization, C.xApiKey, C.customToken, C.unnamedHeader]) expect(sent).toContain(secret);
    const records = readRecords(join(runDir, 'run.jsonl'));
    const cases = records.filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(18);
    // …the plugin's key came back in its errors and in a reply, now redacted…
    const plugin = cases.filter((c) => c.provider === './leaky-provider.mjs');
    expect(plugin.filter((c) => c.error).map((c) => c.error?.message)).toContain('upstream refused key [REDACTED]');
    expect(plugin.find((c) => c.case === 'capital-irrelevant')?.transcript.finalText).toContain('[REDACTED]');
    // …and the effective config keeps its shape: only the credentials are replaced.
    const header = records[0] as RunHeader;
    const providers = (header.config.providers as { options: Record<string, unknown> }[]).map((p) => p.options);
    expect(providers[0]?.headers).toEqual({
      Authorization: '[REDACTED]',
      'X-Api-Key': '[REDACTED]',
      'X-Portal-Token': '[REDACTED]',
      'X-Custom': '[REDACTED]',
      'X-Title': 'toolgauge',
    });
    expect(providers[1]?.baseURL).toBe(`http://tguser:[REDACTED]@${host}/v1`);
    expect(providers[2]?.baseURL).toBe(`${mock.url}/v1?key=[REDACTED]&api_key=[REDACTED]&region=eu`);
    expect(providers[5]).toEqual({ apiKey: '[REDACTED]' });

    const files = filesUnder(dir).filter((f) => f.startsWith(runDir));
    expect(files.map((f) => f.slice(runDir.length + 1))).toEqual(
      expect.arrayContaining(['run.jsonl', 'summary.md', 'report.html', 'run.json', 'cassettes.jsonl']),
    );
    for (const f of files) {
      // report.html holds its case details compressed: search them as the page shows them
      const text = f.endsWith('report.html') ? reportText(readFileSync(f, 'utf8')) : readFileSync(f, 'latin1');
      for (const [where, secret] of Object.entries(C)) {
        expect(text.includes(secret), `the ${where} credential leaked into ${f}`).toBe(false);
      }
    }
    for (const secret of Object.values(C)) expect(res.stdout + res.stderr).not.toContain(secret);
    expect(res.stdout + res.stderr).not.toContain(PREFIX);
  });

  it('an apiKey option a built-in provider does not take is refused without quoting it', async () => {
    const secret = canary('refused');
    const { file } = writeConfig({
      suites: [SUITE],
      renderers: ['native-functions'],
      providers: [{ id: 'openai-compatible:x', options: { baseURL: `${mock.url}/v1`, apiKey: secret } }],
    });
    const res = await runCliWithEnv(['eval', '-c', file], {});
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown option\(s\) 'apiKey'/);
    expect(res.stdout + res.stderr).not.toContain(secret);
  });
});

describe('a run log keeps no credential, so a run resumed from it does not send the redaction marker as one', () => {
  it('refuses, naming the option, when the config file no longer holds a credential the header redacted', async () => {
    const secret = canary('resume');
    const provider = (authorization: string) => ({
      id: 'openai-compatible:resume',
      options: { baseURL: `${mock.url}/v1`, maxRetries: 0, headers: { Authorization: authorization } },
    });
    const config = { suites: [SUITE], renderers: ['native-functions'], gate: { maxInfraErrorRate: 1 } };
    const { file } = writeConfig({ ...config, providers: [provider(`Bearer ${secret}`)] });
    const first = await runCliWithEnv(['eval', '-c', file], {});
    expect(first.code, first.stderr).toBe(0);
    const runDir = runDirFrom(first.stderr);
    // The config file changed since: it holds no credential to take back in place of the redacted one.
    const { headers: _gone, ...withoutHeaders } = provider('').options;
    writeFileSync(
      file,
      stringify({
        ...config,
        out: dirname(runDir),
        providers: [{ id: 'openai-compatible:resume', options: withoutHeaders }],
      }),
    );
    const sentBefore = mock.requests.length;
    const resumed = await runCliWithEnv(['eval', '--resume', runDir], {});
    expect(resumed.code, resumed.stderr).toBe(2);
    expect(resumed.stderr).toMatch(/option headers\.Authorization holds a redacted credential/);
    expect(mock.requests.length).toBe(sentBefore);
    expect(resumed.stdout + resumed.stderr + readFileSync(join(runDir, 'run.jsonl'), 'utf8')).not.toContain(secret);
  });
});

describe('a resumed run takes its credentials back from its config file', () => {
  it('sends the real credential (never the redaction marker) for the cases it still has to run', async () => {
    const secret = canary('resume-ok');
    const config = {
      suites: [SUITE],
      renderers: ['native-functions'],
      gate: { maxInfraErrorRate: 1 },
      providers: [
        {
          id: 'openai-compatible:resume-ok',
          options: { baseURL: `${mock.url}/v1`, maxRetries: 0, headers: { Authorization: `Bearer ${secret}` } },
        },
      ],
    };
    const { file } = writeConfig(config);
    const first = await runCliWithEnv(['eval', '-c', file], {});
    expect(first.code, first.stderr).toBe(0);
    const runDir = runDirFrom(first.stderr);
    // as if interrupted after the first case: header and one case record, no footer
    const log = join(runDir, 'run.jsonl');
    const kept = readFileSync(log, 'utf8').split('\n').filter(Boolean).slice(0, 2);
    expect(kept[0]).not.toContain(secret);
    writeFileSync(log, `${kept.join('\n')}\n`);
    writeFileSync(file, stringify({ ...config, out: dirname(runDir) }));
    const sentBefore = mock.requests.length;
    const resumed = await runCliWithEnv(['eval', '--resume', runDir], {});
    expect(resumed.code, resumed.stderr).toBe(0);
    const sent = mock.requests.slice(sentBefore);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.headers.authorization === `Bearer ${secret}`)).toBe(true);
    expect(resumed.stdout + resumed.stderr + readFileSync(log, 'utf8')).not.toContain(secret);
  });
});
