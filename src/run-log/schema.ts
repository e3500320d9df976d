import type { Grade } from '../contracts/grade.js';
import type { Protocol, Usage } from '../contracts/model.js';
import type { CatalogDrift } from '../contracts/tool.js';
import type { Transcript } from '../contracts/transcript.js';

export const RUN_LOG_FORMAT = 'toolgauge.run/1';

/** First line of run.jsonl. */
export interface RunHeader {
  type: 'header';
  format: typeof RUN_LOG_FORMAT;
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
  plannedCases: number;
  resumedFrom?: string;
  /** Set on a merge of an incomplete set of shards (`merge --allow-partial`): the shards absent, `i/n` each. */
  missingShards?: string[];
  /** Set when this run is one shard of a plan (`--shard index/count`); `merge` combines the shards. */
  shard?: { index: number; count: number };
}

/** One case in one cell (renderer strategy × provider × repeat). */
export interface CaseRecord {
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
  usage: Usage;
  /** An infrastructure error: the case is not graded and counts as an error, never as a failure. */
  error?: { code: string; message: string };
}

export interface RunFooter {
  type: 'footer';
  finishedAt: string;
  interrupted: boolean;
  completed: number;
  errors: number;
}

export type RunRecord = RunHeader | CaseRecord | RunFooter;
