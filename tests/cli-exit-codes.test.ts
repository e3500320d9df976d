import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const MINI = ['eval', '-c', join(FIXTURES, 'bad', 'base.config.yaml')];

/** A bad invocation: exit 2 and exactly one line on stderr, naming what was wrong; no stack trace, nothing on stdout. */
async function expectUsageError(args: string[], ...fragments: (string | RegExp)[]) {
  const res = await runCli(args);
  expect(res.code, res.stderr).toBe(2);
  const lines = res.stderr.split('\n').filter((l) => l.trim());
  expect(lines, res.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^toolgauge: /);
  expect(res.stderr).not.toMatch(/\n\s+at |internal error/);
  expect(res.stdout).toBe('');
  for (const f of fragments) expect(lines[0]).toMatch(f);
}

describe.concurrent("commander's own errors exit 2 with one line", () => {
  it('an unknown option', async () => {
    await expectUsageError(['eval', '--bogus'], /unknown option '--bogus'/, /--help/);
  });

  it('an unknown option with a suggestion stays on one line', async () => {
    await expectUsageError(['eval', '--repet', '3'], /unknown option '--repet' \(Did you mean --repeat\?\)/);
  });

  it('an option the command does not have (replay has no --out)', async () => {
    await expectUsageError(['replay', 'DIR', '--out', 'X'], /unknown option '--out'/);
  });

  it('an invalid option argument', async () => {
    await expectUsageError(['eval', '--repeat', 'abc'], /--repeat must be a whole number/);
    await expectUsageError(['eval', '--concurrency', ''], /--concurrency must be a whole number/);
  });

  it('a missing option argument', async () => {
    await expectUsageError(['eval', '--repeat'], /option '--repeat <k>' argument missing/);
  });

  it('a missing required option', async () => {
    await expectUsageError(['grade', '--outputs', 'f'], /required option '-s, --suite <suite>' not specified/);
  });

  it('a missing argument, too many arguments, an unknown command', async () => {
    await expectUsageError(['replay'], /missing required argument 'run-dir'/);
    await expectUsageError(['eval', 'extra'], /too many arguments for 'eval'/);
    await expectUsageError(['evl'], /unknown command 'evl'/);
  });

  it('no command prints the help on stderr and exits 2; --help and --version exit 0', async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: toolgauge');
    expect(none.stderr).toMatch(/Exit codes: 0 passed, 1 .*, 2 usage or config error/);
    const help = await runCli(['eval', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: toolgauge eval');
    expect((await runCli(['--version'])).code).toBe(0);
  });
});

describe.concurrent('values out of range exit 2 naming the flag and the valid range', () => {
  it('--concurrency 0, --max-turns 0, --repeat 0, --max-turns above the config limit', async () => {
    await expectUsageError([...MINI, '--concurrency', '0'], /--concurrency 0: must be a whole number from 1 to 1024/);
    await expectUsageError([...MINI, '--max-turns', '0'], /--max-turns 0: must be a whole number from 1 to 50/);
    await expectUsageError([...MINI, '--repeat', '0'], /--repeat 0: must be a whole number from 1 to 1000/);
    await expectUsageError([...MINI, '--max-turns', '51'], /--max-turns 51: must be a whole number from 1 to 50/);
  });

  it('replay --concurrency 0', async () => {
    const out = tempDir('tg-exit-');
    const run = await runCli([...MINI, '--out', out, '-q']);
    expect(run.code, run.stderr).toBe(0);
    await expectUsageError(['replay', runDirFrom(run.stderr), '--concurrency', '0'], /--concurrency 0: must be/);
  });

  it('a file that is not a run nor a baseline is named as such, not as missing', async () => {
    // (was "not found" for a file that is there)
    const readme = join(FIXTURES, '..', '..', 'README.md');
    const notRun = /: not a run \(pass a reports\/<run-id> folder or its run\.jsonl\)$/;
    await expectUsageError(['report', readme], `report ${readme}`, notRun);
    const notBaseline = /: not a baseline or a run \(pass reports\/baseline\.json, /;
    await expectUsageError(['compare', readme, readme], `baseline ${readme}`, notBaseline);
    await expectUsageError(['plan', readme], `baseline ${readme}`, notBaseline);
  });

  it('a port above 65535', async () => {
    await expectUsageError(['serve', 'mcp', 'coder', '--http', '99999'], /--http must be a port from 0 to 65535/);
    await expectUsageError(['serve', 'llm', '--port', '65536'], /--port must be a port from 0 to 65535/);
  });
});

describe.concurrent('configuration the user must fix exits 2 naming it', () => {
  let busy: Server;
  let port: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('a busy port for serve llm and serve mcp --http', async () => {
    const inUse = new RegExp(`port ${port} is already in use`);
    await expectUsageError(['serve', 'llm', '--port', String(port)], new RegExp(`--port ${port}: `), inUse);
    await expectUsageError(['serve', 'mcp', 'coder', '--http', String(port)], new RegExp(`--http ${port}: `), inUse);
  });

  it('a missing API key names the environment variable', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      await expectUsageError(
        [...MINI, '-p', 'openai:gpt-4o-mini'],
        /no API key — set the environment variable OPENAI_API_KEY/,
      );
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
