import { BlobDecoder } from './blob-decoder.js';
import { RUN_LOG_FORMAT, RUN_LOG_FORMAT_1 } from './schema.js';

/**
 * Reads the lines of one run log written in one format into records of the current format (RUN_LOG_FORMAT), before
 * they are validated. Made once per log, so a format may keep state from line to line (format 2 stores each prompt
 * once per run and resolves the later references to it). A line it cannot read throws BlobFormatError, which the
 * reader names with file:line.
 */
export interface LogDecoder {
  /** The record a line holds, in the current format; null for a line the format keeps for its own use. */
  decode(value: Record<string, unknown>): Record<string, unknown> | null;
}

/** Format 1: every record whole (each turn repeats its system prompt and tools). Only the header's format changes. */
function format1(): LogDecoder {
  return { decode: (value) => (value.type === 'header' ? { ...value, format: RUN_LOG_FORMAT } : value) };
}

/**
 * Format 2 (current): blob lines are kept, and each case record's references resolved to the texts and the fields
 * its `packed` rules left out restored; the first header gives what those rules need of the run (the seed).
 */
function format2(): LogDecoder {
  const blobs = new BlobDecoder();
  let header = false;
  return {
    decode(value) {
      if (value.type === 'blob') {
        blobs.add(value);
        return null;
      }
      if (value.type === 'header' && !header) {
        header = true;
        blobs.useHeader(value);
      }
      return value.type === 'case' ? blobs.decode(value) : value;
    },
  };
}

/**
 * Every run-log format this toolgauge reads, by the `format` of its header: the one place where a new version is
 * added (its decoder migrates its records to the current format).
 */
const DECODERS: Record<string, () => LogDecoder> = {
  [RUN_LOG_FORMAT_1]: format1,
  [RUN_LOG_FORMAT]: format2,
};

/** The formats `decoderFor` accepts, newest last. */
export const READABLE_FORMATS: readonly string[] = Object.keys(DECODERS);

/** The decoder of a log whose header names `format`; undefined for a format this toolgauge does not read. */
export function decoderFor(format: unknown): LogDecoder | undefined {
  return typeof format === 'string' && Object.hasOwn(DECODERS, format) ? DECODERS[format]?.() : undefined;
}
