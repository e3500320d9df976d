import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from './cli-helpers.js';

const BAD = join(FIXTURES, 'bad');
const base = ['eval', '-c', join(BAD, 'base.config.yaml')];

/** Bad input: exit 2 and exactly one line naming the file, the location and what is valid; no stack trace. */
async function expectOneLineError(args: string[], ...fragments: (string | RegExp)[]) {
  const res = await runCli(args);
  expect(res.code, res.stderr).toBe(2);
  const lines = res.stderr.split('\n').filter((l) => l.trim());
  expect(lines, res.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^toolgauge: /);
  expect(res.stderr).not.toMatch(/\n\s+at /);
  for (const f of fragments) expect(lines[0]).toMatch(f);
  return lines[0]!;
}

describe('bad input → exit 2 with one located line', () => {
  it('a suite with a YAML syntax error names file:line:col', async () => {
    await expectOneLineError(
      [...base, '-s', join(BAD, 'yaml-syntax.yaml')],
      /yaml-syntax\.yaml:\d+:\d+: YAML syntax error/,
    );
  });

  it('a case with no prompt names the file, the line and the YAML path', async () => {
    await expectOneLineError(
      [...base, '-s', join(BAD, 'no-prompt.yaml')],
      /no-prompt\.yaml:8:5: cases\[1\]\.prompt: missing required key/,
    );
  });

  it('an unknown renderer in the config names its line and the valid renderers', async () => {
    await expectOneLineError(
      ['eval', '-c', join(BAD, 'unknown-renderer.config.yaml')],
      /unknown-renderer\.config\.yaml:4:5: renderers\[1\]: unknown renderer 'fancy-renderer'/,
      /valid: names-only, full-details, native-functions, cached-schemas/,
    );
  });

  it('an unknown provider on the command line lists the valid ids', async () => {
    await expectOneLineError(
      [...base, '-p', 'gpt-5'],
      /--provider gpt-5: unknown provider 'gpt-5'; valid: openai:<model>/,
    );
    await expectOneLineError([...base, '-p', 'sim:wizard'], /sim:wizard/, /sim:oracle, sim:guesser/);
  });

  it('a server command that does not exist names the suite line', async () => {
    await expectOneLineError(
      [...base, '-s', join(BAD, 'missing-command.yaml')],
      /missing-command\.yaml:3:\d+: servers\.tools\.command\[0\]: server command 'toolgauge-no-such-mcp-server' not found/,
    );
  });

  it('a missing config file says how to fix it', async () => {
    await expectOneLineError(
      ['eval', '-c', join(BAD, 'nope.yaml')],
      /nope\.yaml: config file not found; pass --config/,
    );
  });

  it('--verbose adds the stack trace', async () => {
    const res = await runCli(['--verbose', ...base, '-p', 'gpt-5']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/\n\s+at /);
  });
});

describe('toolgauge schema', () => {
  it('prints the JSON Schema of the config, generated from the zod schema', async () => {
    const res = await runCli(['schema']);
    expect(res.code).toBe(0);
    const schema = JSON.parse(res.stdout) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['suites', 'renderers', 'providers', 'gate']),
    );
    expect(schema.required).toEqual(expect.arrayContaining(['suites', 'renderers', 'providers']));
  });
});
