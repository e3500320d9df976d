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
  /** Strategies and providers as planned, with what reports need to label them. */
  strategies: { label: string; name: string; options: Record<string, unknown> }[];
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
};

export type RunRecord = RunHeader | CaseRecord | RunFooter;
