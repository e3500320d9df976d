import { z } from 'zod';
import type { Grade } from '../contracts/grade.js';
import type { Protocol } from '../contracts/model.js';
import type { CaseRecord, GateCheck, RunFooter, RunGate, RunHeader, RunRecord } from '../contracts/run-log.js';
import type { CatalogDrift } from '../contracts/tool.js';
import type { Transcript } from '../contracts/transcript.js';
import type { Agrees, SameType } from '../util/same-type.js';

/**
 * The version of the run log this toolgauge writes, in every header's `format`. A log of another version is read
 * through its decoder (run-log/versions.ts), which hands out records of this version. Format 2 stores each rendered
 * system prompt and tool list once per log (run-log/blobs.ts, blob-encoder.ts, blob-decoder.ts; docs/run-log.md); the records read are the same.
 */
export const RUN_LOG_FORMAT = 'toolgauge.run/2';

/** Format 1: every turn of every record held its whole system prompt and tools. Still read. */
export const RUN_LOG_FORMAT_1 = 'toolgauge.run/1';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/*
 * These schemas validate; they never transform (no defaults, no coercion), so a record read is the line as written,
 * fields unknown to this version included. The transcript and the catalog drift are checked for their shape only:
 * they are the bulk of a record, and checking every turn would make reading a long log several times slower.
 */

const ProtocolSchema = z.enum([
  'native',
  'xml-tags',
  'json',
  'python-call',
  'tool-named-xml',
]) satisfies z.ZodType<Protocol>;

const GradeSchema = z.custom<Grade>(
  (v) =>
    isObject(v) &&
    typeof v.grader === 'string' &&
    typeof v.pass === 'boolean' &&
    typeof v.score === 'number' &&
    typeof v.reason === 'string',
  { message: 'a grade is {grader, pass, score, reason}' },
);

const TranscriptSchema = z.custom<Transcript>((v) => isObject(v) && (v.turns === undefined || Array.isArray(v.turns)), {
  message: 'a transcript is {turns: [...], finalText, stopReason}',
});

const CatalogDriftSchema = z.custom<CatalogDrift>(isObject, { message: 'catalogDrift is {added, removed, changed}' });

/** First line of run.jsonl. */
export const RunHeaderSchema = z.object({
  type: z.literal('header'),
  format: z.literal(RUN_LOG_FORMAT),
  runId: z.string(),
  toolgaugeVersion: z.string(),
  startedAt: z.string(),
  gitCommit: z.string().nullable(),
  configFile: z.string(),
  /** The effective config (after command-line overrides). */
  config: z.record(z.string(), z.unknown()),
  /**
   * Strategies and providers as planned, with what reports need to label them. A strategy on a catalog variant names
   * it: `base` is the variant as configured, `sweep` the swept fields' values of this point (reports chart them).
   */
  strategies: z.array(
    z.object({
      label: z.string(),
      name: z.string(),
      options: z.record(z.string(), z.unknown()),
      /** The provider labels or globs the strategy runs with (absent: every provider). */
      providers: z.array(z.string()).optional(),
      variant: z
        .object({
          name: z.string(),
          base: z.string(),
          spec: z.record(z.string(), z.unknown()),
          sweep: z.record(z.string(), z.number()).optional(),
        })
        .optional(),
    }),
  ),
  providers: z.array(z.object({ label: z.string(), id: z.string(), simulated: z.boolean() })),
  suites: z.array(z.object({ name: z.string(), file: z.string(), cases: z.number() })),
  /**
   * What every suite of the config holds (src/config/suite-hash.ts), by suite name, including suites `--filter` or
   * `--tag` left no case of: the baseline's config hash covers the suites' content. Absent in older logs.
   */
  suiteHashes: z.record(z.string(), z.string()).optional(),
  plannedCases: z.number(),
  resumedFrom: z.string().optional(),
  /** Set on a merge of an incomplete set of shards (`merge --allow-partial`): the shards absent, `i/n` each. */
  missingShards: z.array(z.string()).optional(),
  /** Set when this run is one shard of a plan (`--shard index/count`); `merge` combines the shards. */
  shard: z.object({ index: z.number(), count: z.number() }).optional(),
  /** Set when the run was narrowed by `--filter` / `--tag`: `eval --resume` runs the same cases. */
  caseFilter: z.object({ globs: z.array(z.string()), tags: z.array(z.string()) }).optional(),
});

/** One case in one cell (renderer strategy × provider × repeat). */
export const CaseRecordSchema = z.object({
  type: z.literal('case'),
  /** Stable identity of the planned item: suite/case|renderer|provider|repeat. */
  key: z.string(),
  suite: z.string(),
  case: z.string(),
  renderer: z.string(),
  provider: z.string(),
  simulated: z.boolean(),
  repeat: z.number(),
  protocol: ProtocolSchema,
  catalogHash: z.string(),
  /** The renderer used the schema cache and it differs from the live server's tools/list (absent: no drift). */
  catalogDrift: CatalogDriftSchema.optional(),
  /** Prompt size of the first request, in o200k tokens (an estimate for non-OpenAI models). */
  promptTokens: z.number(),
  /** The case's tags as its suite gives them (absent: none), so reports search by tag without reading the suite. */
  tags: z.array(z.string()).optional(),
  transcript: TranscriptSchema,
  grades: z.array(GradeSchema),
  startedAt: z.string(),
  durationMs: z.number(),
  /** Summed over the turns as the provider reported them; cached = prompt-cache reads, cacheWrite = writes. */
  usage: z.object({
    input: z.number(),
    output: z.number(),
    cached: z.number().optional(),
    cacheWrite: z.number().optional(),
  }),
  /** An infrastructure error: the case is not graded and counts as an error, never as a failure. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

/**
 * One check the gate made, as junit.xml lists it: the gate's verdict is the only place a junit.xml has failures, so a
 * CI test viewer is red exactly when the gate failed, and names each failing check with its cases.
 */
export const GateCheckSchema = z.object({
  kind: z.enum(['infrastructure', 'pass-rate', 'threshold', 'regression']),
  /** What was checked, as a test's name: "correct-arguments >= 80.0% in names-only × sim:guesser". */
  name: z.string(),
  ok: z.boolean(),
  /** The gate's line for it (the one printed when it failed). */
  line: z.string(),
  /** The grader and the cell it is about (absent: every cell). */
  grader: z.string().optional(),
  renderer: z.string().optional(),
  provider: z.string().optional(),
});

/** The gate's verdict on a run, as its footer keeps it: the exit code, the lines printed and every check made. */
export const RunGateSchema = z.object({
  exitCode: z.number(),
  lines: z.array(z.string()),
  checks: z.array(GateCheckSchema),
  /** The run id of the baseline compared with; null: the config's baseline file did not exist; absent: not compared. */
  baseline: z.string().nullable().optional(),
});

/** Last line of a run that ended (finished or interrupted); a killed run has none. */
export const RunFooterSchema = z.object({
  type: z.literal('footer'),
  finishedAt: z.string(),
  interrupted: z.boolean(),
  completed: z.number(),
  errors: z.number(),
  /**
   * The gate's verdict, added once the command judged it (eval, replay, regrade, merge), so `toolgauge report` writes
   * junit.xml and summary.md as the command did. Absent when nothing was judged (`grade`, a cancelled run) and in
   * logs written before it was kept.
   */
  gate: RunGateSchema.optional(),
});

export const RunRecordSchema = z.discriminatedUnion('type', [RunHeaderSchema, CaseRecordSchema, RunFooterSchema]);

/* The records' types are the contract's (src/contracts/run-log.ts); these schemas read exactly them. */
export type { CaseRecord, GateCheck, RunFooter, RunGate, RunHeader, RunRecord };
export type RunLogSchemasAgree = [
  Agrees<SameType<z.infer<typeof RunHeaderSchema>, RunHeader>>,
  Agrees<SameType<z.infer<typeof CaseRecordSchema>, CaseRecord>>,
  Agrees<SameType<z.infer<typeof RunFooterSchema>, RunFooter>>,
  Agrees<SameType<z.infer<typeof RunRecordSchema>, RunRecord>>,
  Agrees<SameType<z.infer<typeof GateCheckSchema>, GateCheck>>,
  Agrees<SameType<z.infer<typeof RunGateSchema>, RunGate>>,
];
