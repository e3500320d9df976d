import { createHash } from 'node:crypto';
import type { Turn } from '../contracts/transcript.js';
import { jsonText } from '../util/json-text.js';
import type { CaseRecord } from './schema.js';

/*
 * Format 2 stores each rendered system prompt and each tool list once per run log, content-addressed: a
 * `{"type":"blob","hash","text"}` line written before the first record that refers to it, and each turn's request
 * holding `systemRef` / `toolsRef` (the hash) in place of `system` / `tools`. A turn whose messages begin with the
 * previous turn's messages holds only the new ones, and `priorMessages`: how many it takes from the previous turn; a
 * reply whose raw response repeats its text and calls holds `rawIsReply: true` instead of that copy.
 * Everything else in a record is written as it is. Decoding gives back the record exactly as it was before encoding.
 */

/** A system prompt shorter than this stays inline (a blob line and a reference would cost more). */
const MIN_BLOB_CHARS = 64;

/** The hash of a blob's text: 16 hex digits of its SHA-256 (a writer refuses two texts with one hash). */
export function blobHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** A blob line of format 2. */
export interface BlobLine {
  type: 'blob';
  hash: string;
  text: string;
}

/** An error in a line of format 2, named by the reader with file:line. */
export class BlobFormatError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const sameKeys = (v: Record<string, unknown>, keys: readonly string[]) => {
  const own = Object.keys(v);
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
};

/**
 * A reply whose raw response is exactly `{text, toolCalls}` of the reply itself (the simulated providers') is written
 * with `rawIsReply: true` and no `raw.response`; the decoder puts it back.
 */
function encodeResponse(response: Turn['response']): unknown {
  const raw = (response as { raw?: unknown }).raw;
  if (!isObject(raw) || !sameKeys(raw, ['request', 'response']) || Object.hasOwn(response, 'rawIsReply'))
    return response;
  const reply = raw.response;
  if (!isObject(reply) || !sameKeys(reply, ['text', 'toolCalls'])) return response;
  if (JSON.stringify(reply) !== JSON.stringify({ text: response.text, toolCalls: response.toolCalls })) return response;
  return { ...response, raw: { request: raw.request }, rawIsReply: true };
}

function decodeResponse(response: unknown): unknown {
  if (!isObject(response) || response.rawIsReply !== true) return response;
  const { rawIsReply: _, ...rest } = response;
  if (!isObject(rest.raw)) throw new BlobFormatError('a response with rawIsReply has no raw');
  return { ...rest, raw: { request: rest.raw.request, response: { text: rest.text, toolCalls: rest.toolCalls } } };
}

const sameMessage = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Encodes records for format 2 and remembers which blobs this log holds already; `blob` is called with each blob
 * line to write before the record. Memory grows with the distinct texts, not with the records.
 */
export class BlobEncoder {
  private readonly written = new Map<string, string>();

  constructor(private readonly blob: (line: BlobLine) => void) {}

  /** The hash of `text`, its blob line written first if this log does not hold it yet. */
  private ref(text: string): string {
    const hash = blobHash(text);
    const known = this.written.get(hash);
    if (known === undefined) {
      this.written.set(hash, text);
      this.blob({ type: 'blob', hash, text });
    } else if (known !== text) {
      throw new Error(`run log: two different texts have the blob hash ${hash}`);
    }
    return hash;
  }

  /** The record as format 2 writes it (a new object; the record is not changed). */
  encode(record: CaseRecord): Record<string, unknown> {
    const turns = record.transcript?.turns;
    if (!Array.isArray(turns) || turns.length === 0) return record;
    let prev: Turn['request']['messages'] | undefined;
    const encoded = turns.map((turn) => {
      const request = turn.request;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(request)) {
        if (k === 'system' && typeof v === 'string' && v.length >= MIN_BLOB_CHARS) out.systemRef = this.ref(v);
        else if (k === 'tools' && Array.isArray(v) && v.length > 0) out.toolsRef = this.ref(jsonText(v) as string);
        else if (k === 'messages' && Array.isArray(v) && prev && prev.length > 0 && prev.length <= v.length) {
          const p = prev;
          if (p.every((m, i) => sameMessage(m, v[i]))) {
            out.priorMessages = p.length;
            out.messages = v.slice(p.length);
          } else out.messages = v;
        } else out[k] = v;
      }
      prev = Array.isArray(request.messages) ? request.messages : undefined;
      return { ...turn, request: out, response: encodeResponse(turn.response) };
    });
    return { ...record, transcript: { ...record.transcript, turns: encoded } };
  }
}

/** Reads blob lines and resolves the references of the records after them. Holds one text per distinct blob. */
export class BlobDecoder {
  private readonly blobs = new Map<string, string>();

  /** Keeps a blob line's text. */
  add(line: Record<string, unknown>): void {
    const { hash, text } = line;
    if (typeof hash !== 'string' || typeof text !== 'string')
      throw new BlobFormatError('not a valid blob record (a blob is {type: "blob", hash, text})');
    if (hash !== blobHash(text)) throw new BlobFormatError(`blob ${hash}: its text does not have that hash`);
    this.blobs.set(hash, text);
  }

  private text(hash: unknown, field: string): string {
    const text = typeof hash === 'string' ? this.blobs.get(hash) : undefined;
    if (text === undefined)
      throw new BlobFormatError(`${field} ${JSON.stringify(hash)} names no blob written before this line`);
    return text;
  }

  /** The record with every reference resolved (the record as it was before encoding). */
  decode(record: Record<string, unknown>): Record<string, unknown> {
    const transcript = record.transcript;
    if (!isObject(transcript) || !Array.isArray(transcript.turns)) return record;
    let prev: unknown[] | undefined;
    const turns = transcript.turns.map((turn: unknown, i: number) => {
      if (!isObject(turn) || !isObject(turn.request)) return turn;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(turn.request)) {
        if (k === 'systemRef') out.system = this.text(v, `transcript.turns.${i}.request.systemRef`);
        else if (k === 'toolsRef') out.tools = JSON.parse(this.text(v, `transcript.turns.${i}.request.toolsRef`));
        else if (k === 'priorMessages') continue;
        else if (k === 'messages' && turn.request.priorMessages !== undefined) {
          const n = turn.request.priorMessages;
          if (typeof n !== 'number' || !prev || n > prev.length || !Array.isArray(v))
            throw new BlobFormatError(
              `transcript.turns.${i}.request.priorMessages: ${JSON.stringify(n)} is more than the previous turn has`,
            );
          out.messages = [...prev.slice(0, n), ...v];
        } else out[k] = v;
      }
      prev = Array.isArray(out.messages) ? out.messages : undefined;
      return { ...turn, request: out, response: decodeResponse(turn.response) };
    });
    return { ...record, transcript: { ...transcript, turns } };
  }
}
