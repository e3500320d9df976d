import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import { ToolgaugeError } from '../errors.js';
import { BlobFormatError } from './blobs.js';
import {
  type CaseRecord,
  CaseRecordSchema,
  type RunFooter,
  RunFooterSchema,
  type RunHeader,
  RunHeaderSchema,
  type RunRecord,
} from './schema.js';
import { decoderFor, type LogDecoder, READABLE_FORMATS } from './versions.js';

const SCHEMAS: Record<RunRecord['type'], z.ZodType> = {
  header: RunHeaderSchema,
  case: CaseRecordSchema,
  footer: RunFooterSchema,
};

const corrupt = (where: string, what: string) =>
  new ToolgaugeError(
    'USAGE',
    `${where}: ${what}; the run log is corrupt (fix or remove that line, or run the eval again)`,
  );

/**
 * Streams the records of a run.jsonl; memory stays flat however long the run. The first record must be a header whose
 * `format` this toolgauge reads (run-log/versions.ts); every line is migrated to the current format and validated
 * against its schema, and a bad one stops the read with `file:line` and what is wrong. A torn last line (a run killed
 * mid-write) is skipped. The record yielded is the line as written (validation never transforms it).
 */
export async function* readRunLog(file: string): AsyncGenerator<RunRecord> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNo = 0;
  let pendingError: ToolgaugeError | undefined;
  let decoder: LogDecoder | undefined;
  try {
    for await (const line of lines) {
      lineNo++;
      if (!line.trim()) continue;
      if (pendingError) throw pendingError;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        // Only the last line may be torn (a crash mid-write); anything earlier is corruption.
        pendingError = corrupt(`${file}:${lineNo}`, 'not a JSON record');
        continue;
      }
      const where = `${file}:${lineNo}`;
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw corrupt(where, 'not a JSON object');
      const raw = value as Record<string, unknown>;
      decoder ??= decoderOf(raw, where);
      let record: Record<string, unknown> | null;
      try {
        record = decoder.decode(raw);
      } catch (e) {
        if (e instanceof BlobFormatError || e instanceof SyntaxError) throw corrupt(where, e.message);
        throw e;
      }
      if (record) yield validated(record, where);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ToolgaugeError('USAGE', `${file}: run log not found (expected reports/<run-id>/run.jsonl)`);
    }
    throw e;
  }
}

/** The decoder named by the log's first record, which must be a header of a format this toolgauge reads. */
function decoderOf(first: Record<string, unknown>, where: string): LogDecoder {
  if (first.type !== 'header') {
    throw new ToolgaugeError(
      'USAGE',
      `${where}: the first record is ${typeof first.type === 'string' ? `a '${first.type}' record` : 'not a record'}, not a run header; is this a toolgauge run log?`,
    );
  }
  const decoder = decoderFor(first.format);
  if (!decoder) {
    throw new ToolgaugeError(
      'USAGE',
      `${where}: run log format ${JSON.stringify(first.format)} is not one this toolgauge reads (it reads ${READABLE_FORMATS.join(', ')}); read it with the toolgauge that wrote it, or upgrade toolgauge`,
    );
  }
  return decoder;
}

/** The record, checked against its type's schema; a usage error naming the line and the first problem otherwise. */
function validated(record: Record<string, unknown>, where: string): RunRecord {
  const schema =
    typeof record.type === 'string' && Object.hasOwn(SCHEMAS, record.type)
      ? SCHEMAS[record.type as RunRecord['type']]
      : undefined;
  if (!schema) {
    throw corrupt(where, `unknown record type ${JSON.stringify(record.type)} (valid: header, case, footer)`);
  }
  const result = schema.safeParse(record);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw corrupt(where, `not a valid ${String(record.type)} record (${path}${issue?.message ?? 'invalid'})`);
  }
  return record as unknown as RunRecord;
}

/** The header of a run log (its first record). */
export async function readHeader(file: string): Promise<RunHeader> {
  for await (const r of readRunLog(file)) {
    if (r.type === 'header') return r;
    break;
  }
  throw new ToolgaugeError('USAGE', `${file}: the first record is not a run header; is this a toolgauge run log?`);
}

/** Streams the case records (and remembers the footer, if the run wrote one). */
export async function* caseRecords(file: string, seen?: { footer?: RunFooter }): AsyncGenerator<CaseRecord> {
  for await (const r of readRunLog(file)) {
    if (r.type === 'case') yield r;
    else if (r.type === 'footer' && seen) seen.footer = r;
  }
}

/**
 * The records of run-log lines already parsed, in the current format (blob lines resolved and dropped), without
 * validation: for tools and tests that read a small log whole. Lines of an unreadable format are returned as they are.
 */
export function decodeRecords(values: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const decoder = values[0]?.type === 'header' ? decoderFor(values[0].format) : undefined;
  if (!decoder) return [...values];
  const out: Record<string, unknown>[] = [];
  for (const v of values) {
    const record = decoder.decode(v);
    if (record) out.push(record);
  }
  return out;
}
