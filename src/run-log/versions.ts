import { RUN_LOG_FORMAT } from './schema.js';

/**
 * Reads the lines of one run log written in one format into records of the current format (RUN_LOG_FORMAT), before
 * they are validated. Made once per log, so a format may keep state from line to line (one that stores each prompt
 * once per run resolves the later references to it).
 */
export interface LogDecoder {
  /** The record a line holds, in the current format; null for a line the format keeps for its own use. */
  decode(value: Record<string, unknown>): Record<string, unknown> | null;
}

/**
 * Every run-log format this toolgauge reads, by the `format` of its header: the one place where a new version is
 * added (its decoder migrates its records to the current format; the current format's decoder is the identity).
 */
const DECODERS: Record<string, () => LogDecoder> = {
  [RUN_LOG_FORMAT]: () => ({ decode: (value) => value }),
};

/** The formats `decoderFor` accepts, newest last. */
export const READABLE_FORMATS: readonly string[] = Object.keys(DECODERS);

/** The decoder of a log whose header names `format`; undefined for a format this toolgauge does not read. */
export function decoderFor(format: unknown): LogDecoder | undefined {
  return typeof format === 'string' && Object.hasOwn(DECODERS, format) ? DECODERS[format]?.() : undefined;
}
