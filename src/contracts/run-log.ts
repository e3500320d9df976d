/*
 * The run log's records (reports/<run-id>/run.jsonl), as every reader receives them. These types are the contract;
 * the zod schemas that validate each line (src/run-log/schema.ts) are checked against them at compile time. They are
 * type aliases rather than interfaces so that a record is a plain JSON object (`Record<string, unknown>`) to the code
 * that packs and unpacks it.
 */
import type { Grade } from './grade.js';
import type { Protocol } from './model.js';
import type { CatalogDrift } from './tool.js';
import type { Transcript } from './transcript.js';

/** First line of run.jsonl. */
export type RunHeader = {
  type: 'header';
  /** The version of the run log (older versions are migrated to this one when read). */
  format: 'toolgauge.run/2';
  runId: string;
  toolgaugeVersion: string;
  startedAt: string;
  gitCommit: string | null;
  configFile: string;
  /** The effective config (after command-line overrides). */
  config: Record<string, unknown>;
  /**
   * Strategies and providers as planned, with what reports need to label them. A strategy on a catalog variant names
   * it: `base` is the variant as configured, `sweep` the swept fields' values of this point (reports chart them).
   */
  strategies: {
    label: string;
    name: string;
    options: Record<string, unknown>;
    /** The provider labels or globs the strategy runs with (absent: every provider). */
    providers?: string[];
    variant?: { name: string; base: string; spec: Record<string, unknown>; sweep?: Record<string, number> };
  }[];
  providers: { label: string; id: string; simulated: boolean }[];
  suites: { name: string; file: string; cases: number }[];
  /** What every suite of the config holds, by suite name (the baseline's config hash covers it). */
  suiteHashes?: Record<string, string>;
  plannedCases: number;
  resumedFrom?: string;
  /** Set on a merge of an incomplete set of shards: the shards absent, `i/n` each. */
  missingShards?: string[];
  /** Set when this run is one shard of a plan (`--shard index/count`). */
  shard?: { index: number; count: number };
  /** Set when the run was narrowed by `--filter` / `--tag`. */
  caseFilter?: { globs: string[]; tags: string[] };
};

/** One case in one cell (renderer strategy × provider × repeat). */
export type CaseRecord = {
  type: 'case';
  /** Stable identity of the planned item: suite/case|renderer|provider|repeat. */
  key: string;
  suite: string;
  case: string;
  renderer: string;
  provider: string;
  simulated: boolean;
  repeat: number;
  protocol: Protocol;
  catalogHash: string;
  /** The renderer used the schema cache and it differs from the live server's tools/list (absent: no drift). */
  catalogDrift?: CatalogDrift;
  /** Prompt size of the first request, in o200k tokens (an estimate for non-OpenAI models). */
  promptTokens: number;
  /** The case's tags as its suite gives them (absent: none), so reports search by tag without reading the suite. */
  tags?: string[];
  transcript: Transcript;
  grades: Grade[];
  startedAt: string;
  durationMs: number;
  /** Summed over the turns as the provider reported them; cached = prompt-cache reads, cacheWrite = writes. */
  usage: { input: number; output: number; cached?: number; cacheWrite?: number };
  /** An infrastructure error: the case is not graded and counts as an error, never as a failure. */
  error?: { code: string; message: string };
};

/** Last line of a run that ended (finished or interrupted); a killed run has none. */
export type RunFooter = {
  type: 'footer';
  finishedAt: string;
  interrupted: boolean;
  completed: number;
  errors: number;
  /**
   * The gate's verdict, added once the command judged it (eval, replay, regrade, merge), so `toolgauge report` writes
   * junit.xml and summary.md as the command did. Absent when nothing was judged (`grade`, a cancelled run) and in
   * logs written before it was kept.
   */
  gate?: RunGate;
};

/**
 * One check the gate made, as junit.xml lists it: the gate's verdict is the only place a junit.xml has failures, so a
 * CI test viewer is red exactly when the gate failed, and names each failing check with its cases.
 */
export type GateCheck = {
  kind: 'infrastructure' | 'pass-rate' | 'threshold' | 'regression';
  /** What was checked, as a test's name: "correct-arguments >= 80.0% in names-only × sim:guesser". */
  name: string;
  ok: boolean;
  /** The gate's line for it (the one printed when it failed). */
  line: string;
  /** The grader and the cell it is about (absent: every cell). */
  grader?: string;
  renderer?: string;
  provider?: string;
};

/** The gate's verdict on a run, as its footer keeps it: the exit code, the lines printed and every check made. */
export type RunGate = {
  exitCode: number;
  lines: string[];
  checks: GateCheck[];
  /** The run id of the baseline compared with; null: the config's baseline file did not exist; absent: not compared. */
  baseline?: string | null;
};

export type RunRecord = RunHeader | CaseRecord | RunFooter;
