import { existsSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { writeSchemaCache } from '../catalog/schema-cache.js';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import type { ToolDef } from '../contracts/tool.js';
import { ToolgaugeError } from '../errors.js';
import { firstRunVerdict, nextSteps, skippedTools } from '../init/first-run-verdict.js';
import { type InitServerFlags, serverFromFlags, specForSuite } from '../init/server-from-flags.js';
import { ciWorkflow, starterConfig, workflowInstall } from '../init/starter-config.js';
import { starterSuite } from '../init/starter-suite.js';
import { displayPath } from '../util/display-path.js';
import { makeFolder, prepareOutputFolder } from '../util/output-folder.js';
import { joinSegment } from '../util/path-segment.js';

export interface InitFlags extends InitServerFlags {
  dir?: string;
  force?: boolean;
  /** `--no-eval`: write the files only. */
  eval?: boolean;
  /** Milliseconds the server has to start and list its tools. */
  timeoutMs?: number;
}

/** Where the composite action is once the workflow installed toolgauge into node_modules (the package ships action.yml). */
const ACTION_REF = './node_modules/toolgauge';

/**
 * `toolgauge init`: connects to an MCP server, lists its tools and writes a starter config, a suite (one case skeleton
 * per tool), the schema cache and a CI workflow into --dir; then runs a first eval with sim:oracle to prove the wiring.
 * The exit code is that eval's.
 */
export async function initCommand(flags: InitFlags): Promise<number> {
  const { spec, name } = serverFromFlags(flags);
  const dir = resolve(flags.dir ?? '.');
  const suiteRel = `suites/${name}.yaml`;
  const files = {
    config: join(dir, DEFAULT_CONFIG),
    // the name is reduced to a-z, 0-9 and dashes from what the server was started with (or --name); checked anyway
    suite: joinSegment(join(dir, 'suites'), name, 'init: suite name', '.yaml'),
    workflow: join(dir, '.github', 'workflows', 'toolgauge.yml'),
  };
  const existing = Object.values(files).filter((f) => existsSync(f));
  if (existing.length > 0 && !flags.force) {
    throw new ToolgaugeError(
      'USAGE',
      `init: ${existing.map(displayPath).join(', ')} already exist(s); pass --force to overwrite, or --dir <another folder>`,
    );
  }

  // before the server is started: a folder that cannot be written is one line, exit 2
  const undo = prepareOutputFolder(dir, `--dir ${flags.dir ?? '.'}`);
  let tools: ToolDef[];
  try {
    tools = await listTools(name, spec, flags.timeoutMs ?? 120_000);
    if (tools.length === 0) {
      throw new ToolgaugeError('USAGE', `init: MCP server '${name}' lists no tools; nothing to write a suite for`);
    }
  } catch (e) {
    undo(); // a server that cannot be listed leaves no empty folder behind
    throw e;
  }
  process.stderr.write(`toolgauge init: MCP server '${name}' lists ${tools.length} tools\n`);

  const suiteDir = join(dir, 'suites');
  makeFolder(suiteDir);
  makeFolder(join(dir, '.github', 'workflows'));
  const suite = starterSuite(name, name, specForSuite(spec, suiteDir), tools);
  writeFileSync(files.suite, suite.text);
  writeFileSync(files.config, starterConfig(suiteRel));
  // the schema cache lives beside the config (schemas/<suite>.json), as `schemas refresh` writes it
  const cache = writeSchemaCache(dir, name, tools);
  const install = workflowInstall(dir);
  writeFileSync(files.workflow, ciWorkflow(relative(dir, files.config) || DEFAULT_CONFIG, ACTION_REF, install));
  for (const f of [files.config, files.suite, cache, files.workflow]) process.stdout.write(`wrote ${displayPath(f)}\n`);
  const shown = {
    suite: displayPath(files.suite),
    config: displayPath(files.config),
    workflow: displayPath(files.workflow),
  };
  const skipped = suite.skipped.map((s) => s.tool);

  if (flags.eval === false) {
    process.stdout.write(
      `${[...skippedTools(skipped, shown), ...nextSteps(shown, install.from === 'repository')].join('\n')}\n`,
    );
    return 0;
  }
  process.stderr.write(
    'toolgauge init: first eval with sim:oracle, which calls each tool once with the example arguments, one case at a time\n',
  );
  const { runEvalCommand } = await import('./eval-command.js');
  // one case at a time, in the suite's order (writes before reads): the first eval does not race its own side effects
  const run = await runEvalCommand({ config: files.config, quiet: true, concurrency: 1 });
  const verdict = firstRunVerdict(
    {
      exitCode: run.exitCode,
      cases: run.aggregate.total,
      infraErrors: run.aggregate.totalErrors,
      toolCalls: run.aggregate.toolCalls,
      toolErrors: run.aggregate.toolErrors,
    },
    shown,
  );
  const closing = [...verdict, ...skippedTools(skipped, shown), '', ...nextSteps(shown, install.from === 'repository')];
  process.stdout.write(`\n${closing.join('\n')}\n`);
  return run.exitCode;
}

/** Connects (paths relative to the current folder), lists the tools, disconnects. */
async function listTools(
  name: string,
  spec: Parameters<typeof import('../catalog/mcp-connection.js').connectServer>[1],
  timeoutMs: number,
): Promise<ToolDef[]> {
  const { connectServer } = await import('../catalog/mcp-connection.js');
  const bounds = {
    timeoutMs,
    setting: 'init --timeout-ms',
    notify: (line: string) => process.stderr.write(`${line}\n`),
  };
  const conn = await connectServer(name, spec, process.cwd(), bounds);
  try {
    return await conn.listTools(bounds);
  } finally {
    await conn.close();
  }
}
