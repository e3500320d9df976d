import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { caseCatalog } from '../catalog/case-catalog.js';
import { ServerPool } from '../catalog/server-pool.js';
import type { Config, RendererEntry } from '../config/config-schema.js';
import { resolveSuitePath } from '../config/load-config.js';
import { type LoadedSuite, loadSuite } from '../config/load-suite.js';
import { resolveGraders, resolveStrategies } from '../config/resolve.js';
import type { Grade } from '../contracts/grade.js';
import type { CaseRecord, RunFooter, RunHeader } from '../contracts/run-log.js';
import type { Catalog } from '../contracts/tool.js';
import { RunAggregate } from '../report/aggregate.js';
import { RunLogWriter } from '../runner/run-log-writer.js';
import { canonicalJson } from '../util/canonical-json.js';
import { caseRecords, readHeader, runLogOf } from './run-log-io.js';

export interface RegradeOptions {
  /** Where the regraded run goes; ignored with `inPlace`. */
  outDir: string;
  inPlace?: boolean;
  /** Grader names or paths; default: the graders the run's config named (all built-in when it named none). */
  graders?: string[];
}

export interface RegradeOutcome {
  header: RunHeader;
  aggregate: RunAggregate;
  runDir: string;
  interrupted: boolean;
  /** Records whose grades changed. */
  changed: number;
  notes: string[];
}

/**
 * Recomputes every record's grades with the current graders from its stored transcript: no model is called. The
 * tools each case was shown are listed again from the suite's servers (or schema cache) and filtered the same way
 * the run did; a record whose catalog hash no longer matches is still regraded and counted in the notes.
 */
export async function regradeRun(runDir: string, options: RegradeOptions): Promise<RegradeOutcome> {
  const source = runLogOf(runDir, 'regrade');
  const header = await readHeader(source);
  const config = header.config as unknown as Config;
  const configDir = dirname(header.configFile);
  const where = (what: string) => (i: number) => `${header.configFile}: ${what}[${i}]`;
  const graders = await resolveGraders(options.graders ?? config.graders, configDir, (i) =>
    options.graders ? `--grader ${options.graders[i]}` : where('graders')(i),
  );
  const strategies = await resolveStrategies(config.renderers as RendererEntry[], configDir, where('renderers'));
  const usesCache = new Map(strategies.map((s) => [s.label, s.renderer.usesCache === true]));
  const suites = new Map<string, LoadedSuite>();
  for (const spec of config.suites) {
    const loaded = loadSuite(resolveSuitePath(spec, configDir));
    suites.set(loaded.suite.name, loaded);
  }

  const dir = options.inPlace ? resolve(runDir) : resolve(options.outDir);
  mkdirSync(dir, { recursive: true });
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
        const first = s.suite.cases[0];
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
  const seen: { footer?: RunFooter } = {};
  try {
    writer.write(out);
    for await (const record of caseRecords(source, seen)) {
      const suite = suites.get(record.suite);
      const c = suite?.suite.cases.find((x) => x.id === record.case);
      if (record.error || !suite || !c) {
        if (!record.error) notes.push(`${record.key}: case no longer in the suite; grades kept`);
        writer.write(record);
        aggregate.add(record);
        continue;
      }
      // As the run did: a cached-schemas renderer showed the cache, drifted from the live server or not.
      const { tools, hash } = caseCatalog({
        live: await liveTools(suite),
        useCache: usesCache.get(record.renderer) === true,
        schemaDir: configDir,
        suite: suite.suite,
        testCase: c,
      });
      if (record.catalogHash && hash !== record.catalogHash) drifted++;
      const input = { case: c, transcript: record.transcript, protocol: record.protocol, tools };
      const grades = graders.map((g) => g.grade(input)).filter((g): g is Grade => g !== null);
      if (canonicalJson(grades) !== canonicalJson(record.grades)) changed++;
      const next: CaseRecord = { ...record, grades };
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
  }
  if (options.inPlace) renameSync(target, join(dir, 'run.jsonl'));
  if (drifted) notes.push(`${drifted} record(s) were graded against a tool catalog that changed since the run`);
  return { header: out, aggregate, runDir: dir, interrupted: seen.footer?.interrupted ?? true, changed, notes };
}
