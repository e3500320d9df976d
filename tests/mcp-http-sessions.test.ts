import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { ROOT, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { type ServedMcp, serveMcpHttp } from './helpers/serve-mcp-http.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/**
 * A suite whose server is reached over HTTP (`url:`) gets a new MCP session per case, so a server that keeps state per
 * session (the bundled economist) starts each case fresh, as it does over stdio or in-process: the same run twice
 * gives the same grades, and sim:oracle passes every one.
 */
let server: ServedMcp | undefined;
let url = '';

beforeAll(async () => {
  server = await serveMcpHttp('economist');
  url = server.url;
}, 30_000);

afterAll(() => server?.stop());

describe('an MCP server over HTTP gets a session per case', () => {
  it('runs the economist suite over HTTP twice with the same, passing grades', async () => {
    const dir = tempDir('tg-http-sessions-');
    const suite = readFileSync(join(ROOT, 'suites', 'economist.yaml'), 'utf8').replace(
      '  economist: { builtin: economist }',
      `  economist: { url: ${JSON.stringify(url)} }`,
    );
    expect(suite).toContain(url);
    writeFileSync(join(dir, 'economist-http.yaml'), suite);
    const grades: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const res = await runCli(
        [
          'eval',
          '-s',
          join(dir, 'economist-http.yaml'),
          '-p',
          'sim:oracle',
          '-r',
          'full-details',
          '--out',
          join(dir, `r${i}`),
          '-q',
        ],
        ROOT,
      );
      expect(res.code, res.stderr).toBe(0);
      const cases = readRecords(join(runDirFrom(res.stderr), 'run.jsonl')).filter(
        (r): r is CaseRecord => r.type === 'case',
      );
      expect(cases.length).toBeGreaterThan(5);
      expect(
        cases.every((c) => !c.error && c.grades.every((g) => g.pass)),
        JSON.stringify(cases.flatMap((c) => c.grades.filter((g) => !g.pass))),
      ).toBe(true);
      grades.push(cases.map((c) => `${c.case}:${c.grades.map((g) => g.pass).join(',')}`).sort());
    }
    expect(grades[1]).toEqual(grades[0]);
  }, 120_000);
});
