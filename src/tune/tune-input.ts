import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ProviderEntrySchema } from '../config/config-schema.js';
import { applyProviderOptionFlags, parseProviderOptionFlag } from '../config/provider-options-cli.js';
import { ToolgaugeError } from '../errors.js';
import { displayPath } from '../util/display-path.js';
import { redactSecrets, registerCredentials } from '../util/redact.js';
import { writeFileWhole } from '../util/write-file.js';
import { RACE_DEFAULTS } from './race.js';

export const TUNE_INPUT_FILE = 'tune-input.json';
export const TUNE_INPUT_FORMAT = 'toolgauge.tune-input/1';

/**
 * What a tune was asked, as it keeps it in its folder so `--resume` races exactly the same (credentials redacted:
 * give a provider's header credentials again with --provider-option on resume).
 */
export const TuneInputSchema = z
  .object({
    format: z.literal(TUNE_INPUT_FORMAT),
    /** Suite files (absolute) or bundled suite names. */
    suites: z.array(z.string().min(1)).min(1),
    providers: z.array(ProviderEntrySchema).min(1),
    /** The space file (absolute), or null for the default space. */
    space: z.string().nullable(),
    grader: z.string().min(1),
    objective: z.enum(['pass-rate', 'pass-per-token']),
    budgetCalls: z.number().int().positive().optional(),
    budgetTokens: z.number().int().positive().optional(),
    seed: z.number().int(),
    alpha: z.number().gt(0).lt(1),
    margin: z.number().gt(0).lt(1),
    firstRound: z.number().int().min(1),
    /** Cases from which a candidate tied with a cheaper one on every case is set aside; 0: never (absent: 15). */
    tieAfter: z.number().int().min(0).optional(),
    concurrency: z.number().int().min(1).max(1024),
    maxTurns: z.number().int().min(1).max(50),
    /** The cassette file every model call goes through (absolute), when not the tune folder's own. */
    cassettes: z.string().min(1).optional(),
  })
  .strict();

export type TuneInput = z.infer<typeof TuneInputSchema>;

/** What the caller of tune() may set; everything but suites and providers has a default. */
export interface TuneSettings {
  suites?: string[];
  providers?: string[];
  /** `KEY=VALUE`, laid over every provider's options (as eval's --provider-option). */
  providerOptions?: string[];
  space?: string;
  grader?: string;
  objective?: 'pass-rate' | 'pass-per-token';
  budgetCalls?: number;
  budgetTokens?: number;
  seed?: number;
  alpha?: number;
  margin?: number;
  firstRound?: number;
  /** From this many cases on, a candidate tied with a cheaper one on every case is set aside (default 15; 0: never). */
  tieAfter?: number;
  concurrency?: number;
  maxTurns?: number;
  /** A cassette file to share (e.g. with a later eval, or another tune): default the tune folder's cassettes.jsonl. */
  cassettes?: string;
}

/** The settings of a new tune, with their defaults; paths made absolute against `cwd`. */
export function newTuneInput(s: TuneSettings, cwd: string): TuneInput {
  if (!s.suites?.length) throw new ToolgaugeError('USAGE', 'no suite to tune on: pass --suite <suite file or name>');
  if (!s.providers?.length) throw new ToolgaugeError('USAGE', 'no provider to tune for: pass --provider <id>');
  const flags = (s.providerOptions ?? []).map(parseProviderOptionFlag);
  const input: TuneInput = {
    format: TUNE_INPUT_FORMAT,
    suites: s.suites.map((spec) => suiteSpec(spec, cwd)),
    providers: applyProviderOptionFlags(s.providers, flags),
    space: s.space ? resolve(cwd, s.space) : null,
    grader: s.grader ?? 'correct-arguments',
    objective: s.objective ?? RACE_DEFAULTS.objective,
    seed: s.seed ?? 1,
    alpha: s.alpha ?? RACE_DEFAULTS.alpha,
    margin: s.margin ?? RACE_DEFAULTS.margin,
    firstRound: s.firstRound ?? RACE_DEFAULTS.firstRound,
    ...(s.tieAfter !== undefined ? { tieAfter: s.tieAfter } : {}),
    concurrency: s.concurrency ?? 4,
    maxTurns: s.maxTurns ?? 6,
    ...(s.budgetCalls !== undefined ? { budgetCalls: s.budgetCalls } : {}),
    ...(s.budgetTokens !== undefined ? { budgetTokens: s.budgetTokens } : {}),
    ...(s.cassettes ? { cassettes: resolve(cwd, s.cassettes) } : {}),
  };
  const parsed = TuneInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ToolgaugeError('USAGE', `tune: ${issue?.path.join('.') || 'settings'}: ${issue?.message ?? 'invalid'}`);
  }
  return input;
}

/** Writes the settings into the tune's folder, credentials redacted. */
export function saveTuneInput(dir: string, input: TuneInput): void {
  registerCredentials(input.providers);
  writeFileWhole(join(dir, TUNE_INPUT_FILE), `${JSON.stringify(redactSecrets(input), null, 2)}\n`);
}

/**
 * A tune's settings read back for `--resume`: `--provider-option` may be given again (credentials the folder does not
 * keep); `--concurrency` may change how fast it goes, never what it measures.
 */
export function resumeTuneInput(
  dir: string,
  overrides: Pick<TuneSettings, 'providerOptions' | 'concurrency'>,
): TuneInput {
  const file = join(dir, TUNE_INPUT_FILE);
  if (!existsSync(file)) {
    throw new ToolgaugeError('USAGE', `--resume ${dir}: no ${TUNE_INPUT_FILE} there (pass the folder a tune wrote)`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new ToolgaugeError('USAGE', `${displayPath(file)}: not JSON; the tune folder is damaged`);
  }
  const parsed = TuneInputSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ToolgaugeError(
      'USAGE',
      `${displayPath(file)}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}; the tune folder is damaged or from another version`,
    );
  }
  const input = parsed.data;
  const flags = (overrides.providerOptions ?? []).map(parseProviderOptionFlag);
  return {
    ...input,
    providers: applyProviderOptionFlags(input.providers, flags),
    ...(overrides.concurrency !== undefined ? { concurrency: overrides.concurrency } : {}),
  };
}

/** A suite given as a file that exists (relative to `cwd`) becomes absolute; anything else stays a bundled suite's name. */
function suiteSpec(spec: string, cwd: string): string {
  const here = resolve(cwd, spec);
  return existsSync(here) && statSync(here).isFile() ? here : spec;
}
