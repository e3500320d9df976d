import { existsSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ServerPool } from '../catalog/server-pool.js';
import type { Config, RendererEntry } from '../config/config-schema.js';
import { resolveSuitePath } from '../config/load-config.js';
import { type LoadedSuite, loadSuite } from '../config/load-suite.js';
import { casesById, firstCase } from '../config/suite-cases.js';
import type { Catalog, ToolDef } from '../contracts/tool.js';
import type { Transcript } from '../contracts/transcript.js';
import { ToolgaugeError } from '../errors.js';
import { gradeCase } from '../graders/grade-case.js';
import { parseResponse } from '../parse/index.js';
import { parseTools } from '../parse/parse-tools.js';
import { resolveGraders, resolveStrategies } from '../plugins/index.js';
import { caseView } from '../render/render-case.js';
import { RunContext } from '../render/run-context.js';
import { RunAggregate } from '../run-log/aggregate.js';
import { caseRecords, readHeader } from '../run-log/reader.js';
import { runLogOf } from '../run-log/run-folder.js';
import type { CaseRecord, RunFooter, RunHeader } from '../run-log/schema.js';
import { RunLogWriter } from '../run-log/writer.js';
import { canonicalJson } from '../util/canonical-json.js';
import { makeFolder } from '../util/output-folder.js';
import { lockRunDir } from '../util/run-lock.js';
import { CaseTools } from './case-tools.js';

export interface RegradeOptions {
  /** Where the regraded run goes; ignored with `inPlace`. */
  outDir: string;
  inPlace?: boolean;
  /** Grader names or paths; default: the graders the run's config named (all built-in when it named none). */
  graders?: string[];
  /**
   * Read every stored reply again with the current parser before grading it. Default: on for a run of `grade`, whose
   * replies no tool ever answered; off for an eval run, whose executed calls and fed-back results are history that a
   * new reading of the reply cannot change.
   */
  reparse?: boolean;
}

export interface RegradeOutcome {
  header: RunHeader;
  aggregate: RunAggregate;
  runDir: string;
  interrupted: boolean;
  /** Records whose grades changed. */
  changed: number;
  /** Whether stored replies were parsed again, and how many records the current parser read differently. */
  reparsed: { on: boolean; differ: number };
  notes: string[];
}

/**
 * Recomputes every record's grades with the current graders from its stored transcript: no model is called. The
 * tools each case was shown are listed again from the suite's servers (or schema cache) and filtered the same way
 * the run did; a record whose catalog hash no longer matches is still regraded and counted in the notes. With
 * `reparse` (the default for runs of `grade`), each stored reply is first read again by the current parser, so a
 * format it has learned since is graded as the call it is.
 */
export async function regradeRun(runDir: string, options: RegradeOptions): Promise<RegradeOutcome> {
  const source = runLogOf(runDir, 'regrade');
  const header = await readHeader(source);
  const config = header.config as unknown as Config;
  // a run of `grade` names its suite file in configFile and has no renderers or suites list of its own
  const fromGrade = header.config.command === 'grade';
  const reparse = options.reparse ?? fromGrade;
  const configDir = dirname(header.configFile);
  const where = (what: string) => (i: number) => `${header.configFile}: ${what}[${i}]`;
  const graders = await resolveGraders(options.graders ?? config.graders, configDir, (i) =>
    options.graders ? `--grader ${options.graders[i]}` : where('graders')(i),
  );
  const strategies = fromGrade
    ? []
    : await resolveStrategies(config.renderers as RendererEntry[], configDir, where('renderers'), {
        list: config.variants ?? [],
        where: where('variants'),
      });
  const strategyOf = new Map(strategies.map((s) => [s.label, s]));
  const suites = new Map<string, LoadedSuite>();
  const suiteFiles = fromGrade
    ? header.suites.map((s) => gradedSuiteFile(s.file, header.configFile))
    : (config.suites ?? []).map((spec) => resolveSuitePath(spec, configDir));
  for (const file of suiteFiles) {
    const loaded = loadSuite(file);
    suites.set(loaded.suite.name, loaded);
  }
  const gradedTools = new Map<string, CaseTools>();
  const context = new RunContext(); // the schema cache read and each case catalog hashed once

  const dir = options.inPlace ? resolve(runDir) : resolve(options.outDir);
  makeFolder(dir);
  const lock = lockRunDir(dir, options.inPlace ? 'regrade --in-place' : 'regrade');
  const target = join(dir, options.inPlace ? 'run.jsonl.regrading' : 'run.jsonl');
  const writer = new RunLogWriter(target, 'create');
  const out: RunHeader = options.inPlace ? header : { ...header, runId: dir.split(/[\\/]/).pop() ?? header.runId };
  const aggregate = new RunAggregate(out);
  const pool = new ServerPool();
  const live = new Map<string, Promise<Catalog>>();
  const liveTools = (s: LoadedSuite) => {
    let p = live.get(s.suite.name);
    if (!p) {
      p = (async () => {
        const first = firstCase(s.cases);
        if (!first) return { tools: [], source: 'inline' as const, hash: '' };
        const session = await pool.openCase(s, first);
        await session.release();
        return session.catalog;
      })();
      live.set(s.suite.name, p);
    }
    return p;
  };
  const notes: string[] = [];
  let changed = 0;
  let drifted = 0;
  let reread = 0;
  const seen: { footer?: RunFooter } = {};
  try {
    writer.write(out);
    for await (const record of caseRecords(source, seen)) {
      const suite = suites.get(record.suite);
      const c = suite ? casesById(suite.cases).get(record.case) : undefined;
      if (record.error || !suite || !c) {
        if (!record.error) notes.push(`${record.key}: case no longer in the suite; grades kept`);
        writer.write(record);
        aggregate.add(record);
        continue;
      }
      let tools: ToolDef[];
      let shown: ToolDef[] | undefined;
      let hash: string;
      if (fromGrade) {
        // as grade did: the case's own functions, or the suite's catalog, filtered
        let caseTools = gradedTools.get(suite.suite.name);
        if (!caseTools) {
          caseTools = new CaseTools(suite);
          gradedTools.set(suite.suite.name, caseTools);
        }
        ({ list: tools, hash } = caseTools.cached(c) ?? (await caseTools.of(c)));
      } else {
        // As the run did: a cached-schemas renderer showed the cache, drifted from the live server or not.
        // (the tools renderCase showed; a renderer no longer in the config showed the live ones)
        const view = caseView({
          suite,
          testCase: c,
          live: await liveTools(suite),
          strategy: strategyOf.get(record.renderer),
          schemaDir: configDir,
          context,
        });
        tools = view.tools;
        if (view.catalog.tools !== view.tools) shown = view.catalog.tools;
        hash = view.catalog.hash;
      }
      if (record.catalogHash && hash !== record.catalogHash) drifted++;
      let transcript = record.transcript;
      if (reparse) {
        transcript = reparsed(record, tools);
        if (
          canonicalJson(transcript.turns.map((t) => t.parse)) !==
          canonicalJson(record.transcript.turns.map((t) => t.parse))
        )
          reread++;
      }
      const input = { case: c, transcript, protocol: record.protocol, tools, ...(shown ? { shown } : {}) };
      const grades = gradeCase(graders, input);
      if (canonicalJson(grades) !== canonicalJson(record.grades)) changed++;
      const next: CaseRecord = { ...record, transcript, grades };
      writer.write(next);
      aggregate.add(next);
    }
    writer.write(
      seen.footer
        ? { ...seen.footer, completed: aggregate.total, errors: aggregate.totalErrors }
        : {
            type: 'footer',
            finishedAt: new Date().toISOString(),
            interrupted: true,
            completed: aggregate.total,
            errors: aggregate.totalErrors,
          },
    );
  } finally {
    writer.close();
    await pool.closeAll();
    for (const t of gradedTools.values()) await t.close();
  }
  if (options.inPlace) renameSync(target, join(dir, 'run.jsonl'));
  lock.release();
  if (drifted) notes.push(`${drifted} record(s) were graded against a tool catalog that changed since the run`);
  if (reread) notes.push(`${reread} record(s) whose replies the current parser reads differently than the run did`);
  return {
    header: out,
    aggregate,
    runDir: dir,
    interrupted: seen.footer?.interrupted ?? true,
    changed,
    notes,
    reparsed: { on: reparse, differ: reread },
  };
}

/** The record's transcript with every reply read again by the current parser (executions and results kept). */
function reparsed(record: CaseRecord, tools: readonly ToolDef[]): Transcript {
  const turns = record.transcript.turns;
  const context = { tools: parseTools(tools, turns[0]?.request.tools) };
  return {
    ...record.transcript,
    turns: turns.map((t) => ({ ...t, parse: parseResponse(t.response, record.protocol, context) })),
  };
}

/**
 * The suite file a run of `grade` read: the header's path as written (absolute, or relative to where grade ran). A
 * suite that is gone is a usage error naming the file, not a crash.
 */
function gradedSuiteFile(file: string, configFile: string): string {
  const path = resolve(file || configFile);
  if (!existsSync(path)) {
    throw new ToolgaugeError(
      'USAGE',
      `regrade: the suite this grade run read, ${file || configFile}, is not there; run regrade from the folder grade ran in, or restore the suite file`,
    );
  }
  return path;
}
