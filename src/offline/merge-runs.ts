import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ToolgaugeError } from '../errors.js';
import { CASSETTE_FILE } from '../replay/cassettes.js';
import { RunAggregate } from '../run-log/aggregate.js';
import { caseRecords, readHeader } from '../run-log/reader.js';
import { runLogOf } from '../run-log/run-folder.js';
import type { RunFooter, RunHeader } from '../run-log/schema.js';
import { RunLogWriter } from '../run-log/writer.js';
import { canonicalJson } from '../util/canonical-json.js';
import { makeFolder } from '../util/output-folder.js';
import { lockRunDir } from '../util/run-lock.js';

export interface MergeOutcome {
  header: RunHeader;
  aggregate: RunAggregate;
  runLog: string;
  interrupted: boolean;
  warnings: string[];
  /** Shards of the plan absent from a merge allowed to be partial (`i/n` each); empty when the set is complete. */
  missingShards: string[];
}

/** How a merge may proceed. */
export interface MergeOptions {
  /** Merge an incomplete set of shards (a warning, and the outcome lists them) instead of refusing it. */
  allowPartial?: boolean;
}

/** What must agree for runs to be parts of one experiment (machine-local settings like `out` may differ). */
function experimentOf(h: RunHeader): string {
  const { out: _out, concurrency: _concurrency, ...config } = h.config;
  return canonicalJson({
    format: h.format,
    config,
    strategies: h.strategies,
    providers: h.providers,
    suites: h.suites.map((s) => ({ name: s.name, cases: s.cases })),
  });
}

/**
 * Combines the run logs of shards (or any runs of one config over disjoint cases) into one run log: one header,
 * every case record, one footer; cassettes are concatenated. Streams records, keeping only their keys in memory.
 */
export async function mergeRuns(
  dirs: string[],
  outDir: string,
  runId: string,
  options: MergeOptions = {},
): Promise<MergeOutcome> {
  if (dirs.length < 2) throw new ToolgaugeError('USAGE', 'merge: pass at least two run folders (reports/<run-id>)');
  const logs = dirs.map((d) => runLogOf(d, 'merge:'));
  const headers: RunHeader[] = [];
  for (const f of logs) headers.push(await readHeader(f));
  const first = headers[0]!;
  const warnings: string[] = [];
  let missingShards: string[] = [];
  for (const [i, h] of headers.entries()) {
    if (experimentOf(h) !== experimentOf(first)) {
      throw new ToolgaugeError(
        'USAGE',
        `merge: ${dirs[i]} ran a different config than ${dirs[0]} (suites, renderers, providers, graders, repeats or seed differ); only shards of one run can be merged`,
      );
    }
  }
  const sharded = headers.filter((h) => h.shard);
  if (sharded.length) {
    const count = sharded[0]!.shard!.count;
    const seen = new Map<number, string>();
    for (const [i, h] of headers.entries()) {
      if (!h.shard || h.shard.count !== count) {
        throw new ToolgaugeError(
          'USAGE',
          `merge: ${dirs[i]} is not a shard of ${count} like the others (run it with --shard i/${count})`,
        );
      }
      const prev = seen.get(h.shard.index);
      if (prev)
        throw new ToolgaugeError('USAGE', `merge: ${dirs[i]} and ${prev} are both shard ${h.shard.index}/${count}`);
      seen.set(h.shard.index, dirs[i]!);
    }
    missingShards = Array.from({ length: count }, (_, i) => i + 1)
      .filter((i) => !seen.has(i))
      .map((i) => `${i}/${count}`);
    // An incomplete set would pass for the whole run (its pass rates, its gate): refused unless asked for.
    if (missingShards.length && !options.allowPartial) {
      throw new ToolgaugeError(
        'USAGE',
        `merge: shard(s) ${missingShards.join(', ')} missing; add their run folders (run them with --shard ${missingShards[0]}), or pass --allow-partial to merge the ${seen.size} of ${count} given`,
      );
    }
    if (missingShards.length)
      warnings.push(`merge: shard(s) ${missingShards.join(', ')} missing; the merged run is partial`);
  }
  if (new Set(headers.map((h) => h.gitCommit)).size > 1)
    warnings.push('merge: the runs were made at different git commits');

  const { shard: _shard, resumedFrom: _resumed, ...rest } = first;
  const header: RunHeader = {
    ...rest,
    runId,
    startedAt: headers.map((h) => h.startedAt).sort()[0] ?? first.startedAt,
    plannedCases: headers.reduce((n, h) => n + h.plannedCases, 0),
    ...(missingShards.length ? { missingShards } : {}),
  };
  const dir = resolve(outDir);
  makeFolder(dir);
  const lock = lockRunDir(dir, 'merge');
  const runLog = join(dir, 'run.jsonl');
  const writer = new RunLogWriter(runLog, 'create');
  const aggregate = new RunAggregate(header);
  const owner = new Map<string, number>();
  let interrupted = false;
  try {
    writer.write(header);
    for (const [i, file] of logs.entries()) {
      const seen: { footer?: RunFooter } = {};
      for await (const record of caseRecords(file, seen)) {
        const prev = owner.get(record.key);
        if (prev !== undefined) {
          throw new ToolgaugeError(
            'USAGE',
            `merge: case ${record.key} is in both ${dirs[prev]} and ${dirs[i]}; shards must not overlap`,
          );
        }
        owner.set(record.key, i);
        writer.write(record);
        aggregate.add(record);
      }
      if (!seen.footer || seen.footer.interrupted) {
        interrupted = true;
        warnings.push(`merge: ${dirs[i]} did not finish (resume it with toolgauge eval --resume ${dirs[i]})`);
      }
    }
    writer.write({
      type: 'footer',
      finishedAt: new Date().toISOString(),
      interrupted,
      completed: aggregate.total,
      errors: aggregate.totalErrors,
    });
  } catch (e) {
    writer.close();
    rmSync(runLog, { force: true }); // no half-merged log left behind
    lock.release();
    throw e;
  } finally {
    writer.close();
  }
  for (const d of dirs) {
    const cassettes = join(resolve(d), CASSETTE_FILE);
    if (existsSync(cassettes)) appendFileSync(join(dir, CASSETTE_FILE), readFileSync(cassettes));
  }
  lock.release();
  return { header, aggregate, runLog, interrupted, warnings, missingShards };
}
