import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { EXIT_INTERNAL, EXIT_USAGE, exitCodeOf, isToolgaugeError } from '../errors.js';
import { toolgaugeVersion } from '../util/package-root.js';
import { redactText } from '../util/redact.js';
import type { ReplayFlags } from './replay-command.js';
import { errorLines } from './terminal-guard.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];
const int = (name: string) => (value: string) => {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError(`${name} must be a whole number`);
  }
  return n;
};
/** A TCP port: 0 (any free port) to 65535, refused here rather than by listen() as a fault of ours. */
const port = (name: string) => (value: string) => {
  const n = int(name)(value);
  if (n > 65535) throw new InvalidArgumentError(`${name} must be a port from 0 to 65535 (0 = any free port)`);
  return n;
};

/** A size in MiB for a body limit: a whole number from 1 to 4096. */
const mebibytes = (name: string) => (value: string) => {
  const n = int(name)(value);
  if (n < 1 || n > 4096) throw new InvalidArgumentError(`${name} must be a whole number of MiB from 1 to 4096`);
  return n;
};

let verbose = false;

/** Runs a command's action; its result is the exit code. A thrown error reaches main(), which reports it. */
async function run(action: () => Promise<number>): Promise<void> {
  process.exitCode = await action();
}

/**
 * One line on stderr for an error that ended the command, and its exit code: EXIT_USAGE (2) for every bad
 * invocation (commander's unknown option, missing or invalid argument, unknown command; a typed usage error of a
 * command), EXIT_INTERNAL (3) for an infrastructure fault or a bug.
 */
function reportError(e: unknown): number {
  if (e instanceof CommanderError) {
    // --help and --version end here too, with exit code 0. A command line with no command prints the help on
    // stderr (code commander.help); every other commander error is one line with a pointer to the help.
    if (e.exitCode === 0) return 0;
    if (e.code !== 'commander.help') {
      // Commander puts its "(Did you mean --repeat?)" on a second line: one line, for logs and for grep.
      const message = e.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
      process.stderr.write(`toolgauge: ${message} (run with --help for usage)\n`);
    }
    return EXIT_USAGE;
  }
  if (isToolgaugeError(e)) {
    // an error may quote what it was given, a credential included: redacted like everything a run writes
    process.stderr.write(`toolgauge: ${errorLines(redactText(e.message))}\n`);
    if (verbose && e.stack) process.stderr.write(`${errorLines(redactText(e.stack))}\n`);
    return exitCodeOf(e);
  }
  process.stderr.write(
    `toolgauge: internal error: ${errorLines(redactText(e instanceof Error ? e.message : String(e)))}\n`,
  );
  if (verbose && e instanceof Error) process.stderr.write(`${errorLines(redactText(e.stack ?? ''))}\n`);
  else process.stderr.write('(run again with --verbose for the stack trace)\n');
  return EXIT_INTERNAL;
}

// exitOverride: commander throws its errors (a CommanderError) instead of exiting with code 1, so reportError
// maps them like every other usage error; its own "error: …" output is silenced for the same reason. Both
// settings are inherited by every subcommand created below.
/** Case selection, the same for eval and replay (a new Option per command: commander keeps state on it). */
const filterOption = () =>
  new Option(
    '--filter <glob>',
    'only case ids matching this glob, or suite/case (repeatable: a case matching any runs)',
  ).argParser(collect);
const tagOption = () =>
  new Option(
    '--tag <tag>',
    'only cases with this tag (repeatable: a case with any runs; with --filter, both must pass)',
  ).argParser(collect);

const program = new Command()
  .name('toolgauge')
  .description('Measure how the way an agent presents its tools to an LLM changes whether it calls them correctly.')
  .version(toolgaugeVersion())
  .option('--verbose', 'print stack traces of errors')
  .hook('preAction', (cmd) => {
    verbose = Boolean(cmd.opts().verbose);
  })
  .exitOverride()
  .configureOutput({ outputError: () => {} })
  .addHelpText(
    'after',
    `
Exit codes: 0 passed, 1 the gate (or compare, schemas diff) failed, 2 usage or config error (one line on stderr),
3 infrastructure errors beyond the gate's limit, a file that could not be written (a full disk) or an internal
error, 130 interrupted (Ctrl-C: the cases in flight finish and are saved; a second Ctrl-C aborts them).
Output whose reader has gone (toolgauge eval | head) is dropped: the run still finishes, writes its run log and
every report, and exits with its own code; any other failure to write stdout (a full disk) ends in exit code 3.`,
  );

program
  .command('eval')
  .description(
    'Run suites × renderers × providers × repeats, grade every case, write reports/<run-id>/, apply the gate',
  )
  .option('-c, --config <file>', 'config file', 'toolgauge.config.yaml')
  .option('-s, --suite <suite>', 'suite file or bundled suite name (repeatable; replaces the config list)', collect)
  .option('-r, --renderer <name>', 'renderer strategy (repeatable)', collect)
  .option(
    '--variant <name>',
    "catalog variant every renderer runs on: a name from the config's variants, none, or one inline as YAML, e.g. '{name: crowded, distractors: {from: [coder], count: 25}}' (repeatable)",
    collect,
  )
  .option(
    '--sweep <field=values>',
    'sweep a numeric variant field into one strategy per value, e.g. distractors.count=0,10,25,50 (repeatable)',
    collect,
  )
  .option('-p, --provider <id>', 'provider id, e.g. sim:oracle, openai:gpt-4o-mini (repeatable)', collect)
  .option(
    '--provider-option <key=value>',
    'provider option for every provider of the run, e.g. baseURL=http://127.0.0.1:8000/v1 or temperature=0 (repeatable; docs/providers.md)',
    collect,
  )
  .option('-g, --grader <name>', 'grader (repeatable; default: all)', collect)
  .option('--repeat <k>', 'repeats per case', int('--repeat'))
  .option('--concurrency <n>', 'cases in flight at once', int('--concurrency'))
  .option('--max-turns <n>', 'agent-loop turns per case', int('--max-turns'))
  .addOption(filterOption())
  .addOption(tagOption())
  .option('--out <dir>', 'reports folder')
  .option('--seed <n>', 'seed for simulated providers', int('--seed'))
  .option('--resume <run-dir>', 'continue an interrupted run, skipping its finished cases')
  .option(
    '-q, --quiet',
    'no progress output; of the summary the verdict, the matrix and the first infrastructure errors (summary.md has all of it)',
  )
  .option('--record', "record every provider exchange to cassettes (the run folder's cassettes.jsonl)")
  .option('--replay', 'answer every request from cassettes; no provider is called (a miss is an error)')
  .option('--replay-or-record', 'answer from cassettes when recorded, else call the provider and record')
  .option('--cassettes <file>', 'cassette file to use instead of <run-dir>/cassettes.jsonl (e.g. one committed for CI)')
  .option('--shard <i/n>', 'run only shard i of n (cases partitioned by hash; combine shards with `toolgauge merge`)')
  .action((opts) =>
    run(async () => {
      const { evalCommand } = await import('./eval-command.js');
      return evalCommand({
        config: opts.config,
        suites: opts.suite,
        renderers: opts.renderer,
        providers: opts.provider,
        providerOptions: opts.providerOption,
        graders: opts.grader,
        repeat: opts.repeat,
        concurrency: opts.concurrency,
        maxTurns: opts.maxTurns,
        filter: opts.filter,
        tag: opts.tag,
        out: opts.out,
        seed: opts.seed,
        resume: opts.resume,
        quiet: opts.quiet,
        record: opts.record,
        replay: opts.replay,
        replayOrRecord: opts.replayOrRecord,
        cassettes: opts.cassettes,
        shard: opts.shard,
        variants: opts.variant,
        sweeps: opts.sweep,
      });
    }),
  );

program
  .command('tune')
  .description(
    "Race presentation strategies per provider and recommend each provider's best for the fewest model calls (docs/tune.md)",
  )
  .option('-s, --suite <suite>', 'suite file or bundled suite name (repeatable)', collect)
  .option('-p, --provider <id>', 'provider id (repeatable)', collect)
  .option('--provider-option <key=value>', 'provider option for every provider (repeatable)', collect)
  .option('--space <file>', 'search space: renderers × options × variants (default: the built-in renderers)')
  .option('-g, --grader <name>', 'the grader the race scores by (default correct-arguments)')
  .option(
    '--objective <objective>',
    'pass-rate (default) or pass-per-token: what picks among strategies not told apart',
  )
  .option('--budget-calls <n>', 'most model calls the race may make', int('--budget-calls'))
  .option('--budget-tokens <n>', 'most tokens the race may spend', int('--budget-tokens'))
  .option('--seed <n>', 'seed of the case sample and of simulated providers', int('--seed'))
  .option('--margin <share>', 'stop when every strategy left is within this share of the leader (default 0.1)', Number)
  .option(
    '--tie-after <n>',
    'from this many cases on, set aside a strategy tied on every case with a cheaper one (default 15; 0: never)',
    int('--tie-after'),
  )
  .option('--concurrency <n>', 'cases in flight at once', int('--concurrency'))
  .option('--cassettes <file>', "cassette file every call goes through (default: the tune folder's cassettes.jsonl)")
  .option('--out <dir>', 'folder for tune.md, tune.html, tune.json and the cassettes (default reports/tune-<time>)')
  .option('--resume <dir>', 'continue an interrupted tune: calls already made are answered from its cassettes')
  .option('--yes', 'start even when the estimate is past the budget, or a paid model has no budget')
  .option('-q, --quiet', 'no line per round')
  .action((opts) =>
    run(async () => {
      const { tuneCommand } = await import('./tune-command.js');
      return tuneCommand(opts);
    }),
  );

program
  .command('replay <run-dir>')
  .description("Run a finished run's cases again into a new run folder, from its cassettes (no network) or live")
  .option('--failures', 'only the cases that failed a grader or hit an error')
  .option('--live', 'call the providers again (recording new cassettes) instead of replaying')
  .option('--concurrency <n>', 'cases in flight at once', int('--concurrency'))
  .addOption(filterOption())
  .addOption(tagOption())
  .option(
    '-q, --quiet',
    'no progress output; of the summary the verdict, the matrix and the first infrastructure errors (summary.md has all of it)',
  )
  .action((runDir: string, opts: ReplayFlags) =>
    run(async () => {
      const { replayCommand } = await import('./replay-command.js');
      return replayCommand(runDir, opts);
    }),
  );

program
  .command('regrade <run-dir>')
  .description('Recompute every grade of a finished run with the current graders (no model calls)')
  .option('--out <dir>', 'folder for the regraded run (default: a new run folder beside it)')
  .option('--in-place', "rewrite the run's own run.jsonl and summary.md")
  .option('-g, --grader <name>', "grader (repeatable; default: the run config's graders)", collect)
  .option(
    '--reparse',
    'read every stored reply again with the current parser first (default for runs of grade; an eval run keeps the reading its agent loop acted on)',
  )
  .option('--no-reparse', 'grade the stored readings of the replies as they are')
  .action((runDir: string, opts: { out?: string; inPlace?: boolean; grader?: string[]; reparse?: boolean }) =>
    run(async () => {
      const { regradeCommand } = await import('./regrade-command.js');
      return regradeCommand(runDir, opts);
    }),
  );

program
  .command('merge <run-dirs...>')
  .description('Combine the run logs of shards (--shard i/n) into one run log and one report')
  .option('--out <dir>', 'folder for the merged run (default: a new run folder beside the first)')
  .option('--allow-partial', 'merge an incomplete set of shards (a warning; the merged run is marked partial)')
  .action((dirs: string[], opts: { out?: string; allowPartial?: boolean }) =>
    run(async () => {
      const { mergeCommand } = await import('./merge-command.js');
      return mergeCommand(dirs, opts);
    }),
  );

program
  .command('render')
  .description('Print exactly what the model would receive for one case (system prompt, messages, tools JSON)')
  .requiredOption('-s, --suite <suite>', 'suite file or bundled suite name')
  .requiredOption('--case <id>', 'case id')
  .requiredOption('-r, --renderer <name>', 'renderer')
  .option('-p, --provider <id>', 'provider (shapes native tool names)', 'sim:oracle')
  .option('--options <json>', 'renderer options as JSON, e.g. \'{"noFences":true}\'')
  .option(
    '--variant <name>',
    "catalog variant: a name from the config's variants (with -c), or one inline as YAML, e.g. '{name: x, order: shuffled}'",
  )
  .option(
    '-c, --config <file>',
    'config file whose variants --variant names (default: toolgauge.config.yaml if present)',
  )
  .option('--json', 'print the request as JSON')
  .action((opts) =>
    run(async () => {
      const { renderCommand } = await import('./render-command.js');
      return renderCommand(opts);
    }),
  );

program
  .command('schema')
  .description("Print the config file's JSON Schema (for editor completion)")
  .action(() =>
    run(async () => {
      const { configJsonSchema } = await import('../config/json-schema.js');
      process.stdout.write(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
      return 0;
    }),
  );

const schemas = program
  .command('schemas')
  .description('The committed schema cache of each suite (tools/list snapshots)');
for (const action of ['refresh', 'diff'] as const) {
  schemas
    .command(action)
    .description(
      action === 'refresh'
        ? 'Write schemas/<suite>.json from the live servers'
        : 'Exit 1 when live servers drifted from the cache',
    )
    .option('-c, --config <file>', 'config file', 'toolgauge.config.yaml')
    .option('-s, --suite <suite>', 'only this suite (repeatable)', collect)
    .action((opts) =>
      run(async () => {
        const { schemasCommand } = await import('./schemas-command.js');
        return schemasCommand(action, opts);
      }),
    );
}

const num = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`${name} must be a number between 0 and 1`);
  return n;
};

program
  .command('report <run-dir>')
  .description('Regenerate summary.md, report.html, results.csv, junit.xml and run.json from a run.jsonl')
  .option('--baseline <file>', 'also compare with this baseline (reports/baseline.json or a run folder)')
  .option(
    '--max-html-cases <n>',
    'most cases whose details are embedded in report.html (failing first; every case is listed)',
    int('--max-html-cases'),
  )
  .option('-q, --quiet', 'do not print the summary')
  .action((runDir: string, opts) =>
    run(async () => {
      const { reportCommand } = await import('./report-command.js');
      return reportCommand(runDir, opts);
    }),
  );

program
  .command('compare <baseline> <run>')
  .description('Per-case flips and per-cell deltas with a significance judgement → compare.md; exit 1 on a regression')
  .option(
    '-c, --config <file>',
    "config whose gate's alpha and maxRegression apply (default: toolgauge.config.yaml when present, else built-in defaults)",
  )
  .option(
    '--alpha <p>',
    'significance level, Holm-corrected over cells × graders (overrides the config)',
    num('--alpha'),
  )
  .option(
    '--max-regression <x>',
    'largest drop tolerated even when significant (0.05 = 5 points; overrides the config)',
    num('--max-regression'),
  )
  .option('--out <file>', 'where to write compare.md (default: in the run folder)')
  .option('-q, --quiet', 'do not print compare.md')
  .action((baseline: string, runArg: string, opts) =>
    run(async () => {
      const { compareCommand } = await import('./compare-command.js');
      return compareCommand(baseline, runArg, opts);
    }),
  );

program
  .command('plan <baseline>')
  .description(
    'The cases per cell and repeats with which the gate catches a given drop, and their cost in model calls, from a baseline or run',
  )
  .option(
    '-c, --config <file>',
    "config whose gate's alpha and maxRegression apply (default: toolgauge.config.yaml when present, else built-in defaults)",
  )
  .option('--drop <x>', 'the drop in pass rate to catch (0.1 = 10 points; default 0.1)', num('--drop'))
  .option('--power <p>', 'the chance of catching it (default 0.8)', num('--power'))
  .option('--repeats <list>', 'repeats to plan for (default 1,2,3,5,10)')
  .option('-g, --grader <name>', 'plan for this grader only (repeatable; default: every grader)', collect)
  .option('--alpha <p>', 'significance level (overrides the config)', num('--alpha'))
  .option('--max-regression <x>', 'largest drop tolerated (overrides the config)', num('--max-regression'))
  .action((baseline: string, opts) =>
    run(async () => {
      const { planCommand } = await import('./plan-command.js');
      return planCommand(baseline, opts);
    }),
  );

program
  .command('baseline')
  .description('The committed baseline that eval compares with (reports/baseline.json)')
  .command('update <run-dir>')
  .description("Promote a finished run to the config's baseline (the file eval with that config compares with)")
  .option(
    '-c, --config <file>',
    'config whose gate.baseline (default reports/baseline.json, relative to the config) is written',
    'toolgauge.config.yaml',
  )
  .option('--to <file>', 'write this file instead (relative to the current folder)')
  .option('--force', 'promote an interrupted run anyway')
  .action((runDir: string, opts) =>
    run(async () => {
      const { baselineUpdateCommand } = await import('./baseline-command.js');
      return baselineUpdateCommand(runDir, opts);
    }),
  );

program
  .command('grade')
  .description('Grade recorded model outputs (JSONL) against a suite: writes a run log and the reports, like eval')
  .requiredOption('-s, --suite <suite>', 'suite file or bundled suite name')
  .requiredOption(
    '--outputs <file>',
    'JSONL lines {"case","output"} | {"case","tool_calls"} | {"case","turns"}; BFCL result lines as they are; - reads standard input',
  )
  .option('-r, --renderer <label>', 'label of the renderer column', 'recorded')
  .option(
    '--protocol <p>',
    'protocol the outputs were asked for: xml-tags (default), json, python-call (BFCL), tool-named-xml, native',
  )
  .option('-g, --grader <name>', 'grader (repeatable; default: all)', collect)
  .option('--out <dir>', 'reports folder', 'reports')
  .option(
    '--shard <i/n>',
    "grade only shard i of n (lines partitioned by their case's hash; run the shards on several cores, combine them with `toolgauge merge`)",
  )
  .option(
    '-q, --quiet',
    'no progress output; of the summary the verdict, the matrix and the first infrastructure errors (summary.md has all of it)',
  )
  .action((opts) =>
    run(async () => {
      const { gradeCommand } = await import('./grade-command.js');
      return gradeCommand(opts);
    }),
  );

program
  .command('parse [file]')
  .description(
    'Show what the parser makes of one reply (or of each JSONL line): every call, the tool it resolved to, its shape and span, whether the protocol accepts it, and the diagnostics',
  )
  .option('-s, --suite <suite>', 'suite file or bundled suite name: the case gives the offered tools')
  .option('--case <id>', 'case id (for a plain reply; JSONL lines name their own)')
  .option('--tools <file>', 'JSON tool definitions: MCP tools or a tools/list result, OpenAI tools or Anthropic tools')
  .option(
    '--protocol <p>',
    'protocol the reply was asked for: xml-tags (default), json, python-call (default for BFCL suites), tool-named-xml, native (lines with tool_calls)',
  )
  .option('--format <f>', 'read the input as text (one reply) or jsonl (recorded-output lines) instead of telling')
  .option('--json', 'print JSON: one document, or one line per JSONL input line')
  .addHelpText(
    'after',
    `
FILE is one reply as the model wrote it, or JSONL lines as \`grade --outputs\` reads them (a *.jsonl file, or input
whose first line is an object with "case" and "output"/"tool_calls"/"turns"); - or no FILE reads standard input.

Examples:
  $ toolgauge parse reply.txt
  $ pbpaste | toolgauge parse --suite excel --case read-sheet1-zh
  $ toolgauge parse failures.jsonl --suite excel --json | jq '.calls[] | {name, via, accepted}'
  $ toolgauge parse reply.txt --tools openai-tools.json --protocol json
See docs/parsing-replies.md.`,
  )
  .action((file: string | undefined, opts) =>
    run(async () => {
      const { parseCommand } = await import('./parse-command.js');
      return parseCommand(file, opts);
    }),
  );

program
  .command('import <format> <questions>')
  .description('Convert another benchmark to a suite (format: bfcl)')
  .option('--answers <file>', 'possible_answer file (default: possible_answer/<same name> beside the questions)')
  .requiredOption('--out <file>', 'suite YAML to write')
  .option('--name <name>', 'suite name (default bfcl-<category>)')
  .action((format: string, questions: string, opts) =>
    run(async () => {
      const { importCommand } = await import('./import-command.js');
      return importCommand(format, questions, opts);
    }),
  );

program
  .command('export <format> <run-dir>')
  .description('Convert a run for another tool: promptfoo (eval JSON for `promptfoo import` / `promptfoo view`)')
  .option('-o, --out <file>', 'output file (default: <run-dir>/promptfoo.json)')
  .action((format: string, runDir: string, opts: { out?: string }) =>
    run(async () => {
      const { exportCommand } = await import('./export-command.js');
      return exportCommand(format, runDir, opts);
    }),
  );

program
  .command('init')
  .description(
    'Connect to an MCP server, list its tools, write a starter config, suite, schema cache and CI workflow, then run a first eval with sim:oracle',
  )
  .option(
    '--server <command>',
    'a stdio MCP server\'s command line, e.g. "npx -y @modelcontextprotocol/server-filesystem ."',
  )
  .option('--url <url>', 'a Streamable HTTP MCP server, e.g. http://127.0.0.1:8123/mcp')
  .option('--builtin <name>', 'a bundled mock server: excel, economist, coder')
  .option('--name <name>', 'suite and server name (default: from the command, package or bundled name)')
  .option('--dir <dir>', 'folder to write into (default: the current folder)')
  .option('--force', 'overwrite files that exist')
  .option('--no-eval', 'write the files only; skip the first eval')
  .option(
    '--timeout-ms <ms>',
    'time the server has to start and list its tools (default 120000: npx may download it first)',
    int('--timeout-ms'),
  )
  .action((opts) =>
    run(async () => {
      const { initCommand } = await import('./init-command.js');
      return initCommand(opts);
    }),
  );

program
  .command('doctor')
  .description(
    "Check the setup: Node version, each provider's key or server, that each MCP server starts and lists its tools, the baseline",
  )
  .option('-c, --config <file>', 'config file', 'toolgauge.config.yaml')
  .option('-s, --suite <suite>', 'suite file or bundled suite name (repeatable; replaces the config list)', collect)
  .option('-p, --provider <id>', 'provider id (repeatable; replaces the config list)', collect)
  .option('--provider-option <key=value>', 'provider option for every provider (repeatable)', collect)
  .action((opts) =>
    run(async () => {
      const { doctorCommand } = await import('./doctor-command.js');
      return doctorCommand(opts);
    }),
  );

const serve = program.command('serve').description('Run a bundled mock server');
serve
  .command('mcp <name>')
  .description('Serve a bundled mock MCP server over stdio (default) or Streamable HTTP on 127.0.0.1')
  .option('--http <port>', 'serve over HTTP on this port (0 = any free port)', port('--http'))
  .option(
    '--max-body-mb <n>',
    'largest request body over HTTP, in MiB (default 4; larger: 413)',
    mebibytes('--max-body-mb'),
  )
  .action((name: string, opts: { http?: number; maxBodyMb?: number }) =>
    run(async () => {
      const { serveMcpCommand } = await import('./serve-command.js');
      return serveMcpCommand(name, opts.http, bodyLimit(opts.maxBodyMb));
    }),
  );
serve
  .command('llm')
  .description('Serve the LLM wire-protocol mock (OpenAI, Anthropic, Ollama) on 127.0.0.1')
  .option('--port <port>', 'port (0 = any free port)', port('--port'), 0)
  .addOption(new Option('--persona <name>', 'simulated persona that answers').default('oracle'))
  .option(
    '-s, --suite <suite>',
    'suite whose cases the persona recognises by their prompt (repeatable; default: the bundled suites)',
    collect,
  )
  .option('--max-body-mb <n>', 'largest request body, in MiB (default 32; larger: 413)', mebibytes('--max-body-mb'))
  .action((opts: { port: number; persona: string; suite?: string[]; maxBodyMb?: number }) =>
    run(async () => {
      const { serveLlmCommand } = await import('./serve-command.js');
      return serveLlmCommand(opts.port, opts.persona, opts.suite ?? [], bodyLimit(opts.maxBodyMb));
    }),
  );

/** `--max-body-mb` as the servers take it (bytes), or nothing for their default. */
function bodyLimit(mb: number | undefined): { maxBodyBytes?: number } {
  return mb === undefined ? {} : { maxBodyBytes: mb * 1024 * 1024 };
}

/** Parses the command line and runs the command (the exit code is left in process.exitCode). */
export async function main(argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (e) {
    process.exitCode = reportError(e);
  }
}
