import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { runCliAnywhere } from './run-cli-anywhere.js';

const tempDir = useTempDirs();

const BAD = join(FIXTURES, 'bad');
const base = ['eval', '-c', join(BAD, 'base.config.yaml')];

/** Bad input: exit 2 and exactly one line naming the file, the location and what is valid; no stack trace. */
async function expectOneLineError(args: string[], ...fragments: (string | RegExp)[]) {
  return expectOneLineErrorIn(undefined, args, ...fragments);
}

/** expectOneLineError, the CLI started in `cwd`. */
async function expectOneLineErrorIn(cwd: string | undefined, args: string[], ...fragments: (string | RegExp)[]) {
  const res = cwd === undefined ? await runCli(args) : await runCliAnywhere(args, cwd);
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
      /no-prompt\.yaml:8:5: cases\[1\]\.prompt: a case needs `prompt` \(or `turns`\)/,
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
      /nope\.yaml: config file not found; check the path given to --config/,
    );
  });

  it('an unknown key at its own line and column, with the key meant; no --suite and no config; files nested too deep', async () => {
    const dir = tempDir('tg-errors-');
    {
      writeFileSync(join(dir, 'typo.yaml'), 'suites: [excel]\nproviders: [sim:oracle]\nrepeets: 2\n');
      writeFileSync(
        join(dir, 'other.yaml'),
        'suites: [excel]\nproviders: [sim:oracle]\ngate:\n  tresholds: []\n  zzz: 1\n',
      );
      // 3,000 levels of block maps under `deep:` (the YAML parser itself runs out of stack on it)
      const block = Array.from({ length: 3000 }, (_, i) => `${'  '.repeat(i + 1)}a:`).join('\n');
      writeFileSync(join(dir, 'deep.yaml'), `suites: [excel]\nproviders: [sim:oracle]\ndeep:\n${block} 1\n`);
      // 200 levels of lists in a JSON suite's canned result, which the parser reads but the run could not
      const nested = `${'['.repeat(200)}${']'.repeat(200)}`;
      const suite = {
        name: 'deep',
        tools: [{ name: 't', inputSchema: { type: 'object' } }],
        cases: [{ id: 'a', prompt: 'p', expect: { calls: [{ tool: 't' }] }, results: { t: 'RESULT' } }],
      };
      writeFileSync(join(dir, 'deep-suite.json'), JSON.stringify(suite).replace('"RESULT"', nested));
      writeFileSync(join(dir, 'deep-tools.json'), `[{"name": "t", "inputSchema": ${nested}}]`);
      writeFileSync(join(dir, 'reply.txt'), 'no call');
      const deep = /nests deeper than 128 levels of maps and lists inside one another; toolgauge reads at most 128/;
      await Promise.all([
        expectOneLineErrorIn(
          dir,
          ['eval', '-c', 'typo.yaml'],
          /typo\.yaml:3:1: repeets: unknown key 'repeets'; did you mean 'repeats'\?$/,
        ),
        runCliAnywhere(['eval', '-c', 'other.yaml'], dir).then((res) => {
          expect(res.code).toBe(2);
          expect(res.stderr).toContain(
            "other.yaml:4:3: gate.tresholds: unknown key 'tresholds'; did you mean 'thresholds'?",
          );
          expect(res.stderr).toMatch(
            /other\.yaml:5:3: gate\.zzz: unknown key 'zzz' \(valid here: minPassRate, maxInfraErrorRate, thresholds/,
          );
        }),
        expectOneLineErrorIn(
          dir,
          ['eval', '--provider', 'sim:oracle'],
          /^toolgauge: no suite to run: no --suite given, and there is no config file \(looked for \S+toolgauge\.config\.yaml\); pass --suite <suite file, or a bundled suite: coder, coder-conversations, economist, economist-conversations, excel, excel-conversations>, or --config <file>$/,
        ),
        expectOneLineErrorIn(dir, ['eval', '-c', 'deep.yaml'], /deep\.yaml:\d+:\d+: /, deep),
        expectOneLineErrorIn(
          dir,
          ['eval', '-s', 'deep-suite.json', '-p', 'sim:oracle'],
          /deep-suite\.json:1:\d+: nests/,
          deep,
        ),
        expectOneLineErrorIn(
          dir,
          ['parse', 'reply.txt', '--tools', 'deep-tools.json'],
          /--tools deep-tools\.json: /,
          deep,
        ),
      ]);
    }
  }, 60_000);

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
    const schema = JSON.parse(res.stdout) as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['suites', 'renderers', 'providers', 'gate']),
    );
    // suites and providers may be left to --suite and --provider (a config with provider settings only)
    expect(schema.required ?? []).not.toContain('suites');
    expect(schema.required ?? []).not.toContain('providers');
  });
});

describe('suites checked against their tools, every problem listed', () => {
  const dir = tempDir('tg-suite-check-');
  /** Writes a suite and a config running it with sim:oracle; returns the eval arguments. */
  const evalOf = (name: string, suite: string): string[] => {
    writeFileSync(join(dir, `${name}.yaml`), suite);
    const config = join(dir, `${name}.config.yaml`);
    writeFileSync(
      config,
      `suites: [${name}.yaml]\nrenderers: [full-details]\nproviders: [sim:oracle]\nout: ${join(dir, 'runs')}\n`,
    );
    return ['eval', '-c', config];
  };
  const problemLines = (stderr: string) => stderr.split('\n').filter((l) => l.trim());

  it('inline tools: an unknown tool and an argument the schema lacks are usage errors at load, each located', async () => {
    const args = evalOf(
      'inline-mismatch',
      [
        'name: inline-mismatch',
        'tools:',
        '  - name: get_weather',
        '    inputSchema: { type: object, properties: { city: { type: string } }, required: [city] }',
        'cases:',
        '  - id: a',
        '    prompt: Weather in Paris?',
        '    expect: { calls: [{ tool: get_wether, args: { city: [Paris] } }] }',
        '  - id: b',
        '    prompt: Weather in Rome?',
        '    expect:',
        '      calls:',
        '        - tool: get_weather',
        '          args: { town: [Rome] }',
        '  - id: c',
        '    prompt: Weather in Oslo?',
        '    tools: { exclude: [get_weather] }',
        '    expect: { calls: [{ tool: get_weather }] }',
        '',
      ].join('\n'),
    );
    const res = await runCli(args);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.stderr).not.toContain('→'); // no run started
    const lines = problemLines(res.stderr);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^toolgauge: \S*inline-mismatch\.yaml:8:\d+: cases\[0\]\.expect\.calls\[0\]\.tool: no tool named 'get_wether' is offered to this case \(did you mean 'get_weather'\?\); offered: get_weather; fix the name/,
    );
    expect(lines[1]).toMatch(
      /^ {2}\S*inline-mismatch\.yaml:14:\d+: cases\[1\]\.expect\.calls\[0\]\.args\.town: 'town' is not a parameter of get_weather \(its parameters: city\); fix the name/,
    );
    expect(lines[2]).toMatch(
      /^ {2}\S*inline-mismatch\.yaml:18:\d+: cases\[2\]\.expect\.calls\[0\]\.tool: tool 'get_weather' is filtered out of this case's tools/,
    );
  });

  it('servers: once their catalogs are listed, before any model is called', async () => {
    const args = evalOf(
      'server-mismatch',
      [
        'name: server-mismatch',
        'servers:',
        '  excel: { builtin: excel }',
        'cases:',
        '  - id: a',
        '    prompt: Read Sheet1 of test.xlsx',
        '    expect: { calls: [{ tool: read_excel, args: { filepath: [test.xlsx] } }] }',
        '  - id: b',
        '    prompt: Read Sheet1 of test.xlsx',
        '    expect:',
        '      calls:',
        '        - tool: read_data_from_excel',
        '          args: { filepath: [test.xlsx], sheet: [Sheet1] }',
        '',
      ].join('\n'),
    );
    const res = await runCli(args);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(
      /server-mismatch\.yaml:7:\d+: cases\[0\]\.expect\.calls\[0\]\.tool: no tool named 'read_excel' is offered to this case; offered: [\w, ]*read_data_from_excel/,
    );
    expect(res.stderr).toMatch(
      /server-mismatch\.yaml:13:\d+: cases\[1\]\.expect\.calls\[0\]\.args\.sheet: 'sheet' is not a parameter of read_data_from_excel \(its parameters: filepath, sheet_name/,
    );
    // checked before the run folder is made: no run was announced, no case ran
    expect(res.stderr).not.toMatch(/→ /);
  });

  it('a wrong type names the type expected and found, and every problem of the file is listed', async () => {
    const cases = Array.from({ length: 24 }, (_, i) => `  - { id: c${i}, prompt: hi, expect: { no_call: true } }`);
    const args = evalOf(
      'wrong-types',
      [
        'name: wrong-types',
        'tools: [{ name: t, inputSchema: { type: object } }]',
        'cases:',
        '  - id: a',
        '    prompt: 42',
        '    maxTurns: "3"',
        '    expect: { no_call: true }',
        ...cases,
        ...cases, // every id twice: 24 duplicates
        '',
      ].join('\n'),
    );
    const res = await runCli(args);
    expect(res.code, res.stderr).toBe(2);
    const lines = problemLines(res.stderr);
    expect(lines[0]).toMatch(/wrong-types\.yaml:5:13: cases\[0\]\.prompt: expected string, got number$/);
    expect(lines[1]).toMatch(/wrong-types\.yaml:6:15: cases\[0\]\.maxTurns: expected number, got string$/);
    expect(res.stderr).not.toContain('more)');

    // once the schema passes, the semantic problems: all listed up to 20, the rest counted
    writeFileSync(
      join(dir, 'wrong-types.yaml'),
      readFileSync(join(dir, 'wrong-types.yaml'), 'utf8').replace(
        '    prompt: 42\n    maxTurns: "3"\n',
        '    prompt: hi\n',
      ),
    );
    const dup = await runCli(args);
    expect(dup.code, dup.stderr).toBe(2);
    const dupLines = problemLines(dup.stderr);
    expect(dupLines).toHaveLength(21);
    expect(dupLines[0]).toMatch(/cases\[25\]\.id: duplicate case id 'c0' \(also cases\[1\]\)/);
    expect(dupLines[20]).toMatch(/^ {2}… and 4 more problems in \S*wrong-types\.yaml$/);
  });

  it('a YAML alias bomb in a suite or a config is a usage error naming the file', async () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]',
      'f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]',
      'g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]',
      'h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]',
      'i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]',
      '',
    ].join('\n');
    const suiteArgs = evalOf('bomb', `${bomb}name: bomb\n`);
    await expectOneLineError(suiteArgs, /bomb\.yaml: YAML aliases: .*at most 100 alias expansions/);
    const config = join(dir, 'bomb-config.yaml');
    writeFileSync(config, bomb);
    await expectOneLineError(['eval', '-c', config], /bomb-config\.yaml: YAML aliases: .*at most 100 alias expansions/);
  });
});
