import { existsSync, readFileSync } from 'node:fs';
import { ToolgaugeError } from '../errors.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import { cellKey } from '../run-log/aggregate.js';
import { configHash } from './measured-config.js';
import { firstIssue, SnapshotSchema } from './snapshot-schema.js';

export const SNAPSHOT_FORMAT = 'toolgauge.baseline/1';

/** [passes, graded trials]. */
export type Tally = [number, number];

/**
 * The compact numbers of one run: what reports/baseline.json holds and what `compare` pairs on. Per case
 * in a cell (suite/case|renderer|provider) and grader, passes over repeats; per cell, totals and errors.
 * Serialised with sorted keys, one case per line, so a committed baseline diffs cleanly.
 */
export interface RunSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  runId: string;
  configHash: string;
  gitCommit: string | null;
  repeats: number;
  cells: Record<
    string,
    {
      renderer: string;
      provider: string;
      simulated: boolean;
      cases: number;
      errors: number;
      graders: Record<string, Tally>;
    }
  >;
  cases: Record<string, Record<string, Tally>>;
}

/** The snapshot of a run. `cases: false` leaves the per-case map empty (streamed separately: run-json-file.ts). */
export function snapshotOf(agg: RunAggregate, opts: { cases?: boolean } = {}): RunSnapshot {
  const h = agg.header;
  const cells: RunSnapshot['cells'] = {};
  for (const c of agg.cells.values()) {
    const graders: Record<string, Tally> = {};
    for (const [g, t] of c.graders) graders[g] = [t.pass, t.n];
    cells[cellKey(c.renderer, c.provider)] = {
      renderer: c.renderer,
      provider: c.provider,
      simulated: c.simulated,
      cases: c.cases,
      errors: c.errors,
      graders,
    };
  }
  const cases: RunSnapshot['cases'] = {};
  if (opts.cases !== false) for (const [key, graders] of snapshotCases(agg)) cases[key] = graders;
  return {
    format: SNAPSHOT_FORMAT,
    runId: h.runId,
    // what changes the measurement only (measuredConfig): not the gate, the timeouts, `out` or the checkout's path
    configHash: configHash(h),
    gitCommit: h.gitCommit,
    repeats: agg.repeats,
    cells,
    cases,
  };
}

/** The snapshot's per-case entries (case in a cell → grader → [passes, trials]), in run order, one at a time. */
export function* snapshotCases(agg: RunAggregate): Generator<[string, Record<string, Tally>]> {
  for (const c of agg.casesInRunOrder()) {
    if (!c.graders.length) continue;
    const graders: Record<string, Tally> = {};
    for (const t of c.graders) graders[t.grader] = [t.pass, t.n];
    // caseCellKey's text (suite/case|renderer|provider), from the parts the aggregate keeps
    yield [`${c.caseId}|${cellKey(c.cell.renderer, c.cell.provider)}`, graders];
  }
}

/** Stable text: keys sorted at every depth, one cell or case per line. */
export function serializeSnapshot(s: RunSnapshot): string {
  const line = (v: unknown) => JSON.stringify(sortDeep(v));
  const block = (o: Record<string, unknown>) =>
    Object.keys(o)
      .sort()
      .map((k) => `    ${JSON.stringify(k)}: ${line(o[k])}`)
      .join(',\n');
  return [
    '{',
    `  "format": ${JSON.stringify(s.format)},`,
    `  "runId": ${JSON.stringify(s.runId)},`,
    `  "configHash": ${JSON.stringify(s.configHash)},`,
    `  "gitCommit": ${JSON.stringify(s.gitCommit)},`,
    `  "repeats": ${s.repeats},`,
    `  "cells": {\n${block(s.cells)}\n  },`,
    `  "cases": {\n${block(s.cases)}\n  }`,
    '}',
    '',
  ].join('\n');
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortDeep((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** Reads a baseline.json (or a run's run.json, whose `snapshot` field has the same shape). Null when absent. */
export function readSnapshot(file: string): RunSnapshot | null {
  if (!existsSync(file)) return null;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ToolgaugeError(
      'USAGE',
      `${file}: not valid JSON (${(e as Error).message}); regenerate it with \`toolgauge baseline update <run-dir>\``,
    );
  }
  const s = (data as { snapshot?: unknown }).snapshot ?? data;
  if (!s || typeof s !== 'object' || (s as RunSnapshot).format !== SNAPSHOT_FORMAT) {
    throw new ToolgaugeError(
      'USAGE',
      `${file}: not a toolgauge baseline (expected "format": "${SNAPSHOT_FORMAT}"); regenerate it with \`toolgauge baseline update <run-dir>\``,
    );
  }
  const checked = SnapshotSchema.safeParse(s);
  if (!checked.success) {
    throw new ToolgaugeError(
      'USAGE',
      `${file}: not a valid toolgauge baseline at ${firstIssue(checked.error)}; regenerate it with \`toolgauge baseline update <run-dir>\``,
    );
  }
  return s as RunSnapshot;
}
