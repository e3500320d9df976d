import { createHash } from 'node:crypto';
import type { Turn } from '../contracts/transcript.js';
import { isObject } from './packing.js';

/*
 * Format 2 stores each rendered system prompt and each tool list once per run log, content-addressed: a
 * `{"type":"blob","hash","text"}` line written before the first record that refers to it, and each turn's request
 * holding `systemRef` / `toolsRef` (the hash) in place of `system` / `tools`. A turn whose messages begin with the
 * previous turn's messages holds only the new ones, and `priorMessages`: how many it takes from the previous turn; a
 * reply whose raw response repeats its text and calls holds `rawIsReply: true` instead of that copy.
 *
 * A record may also be packed (run-log/packing.ts): the fields one of the format's derivation rules gives back
 * exactly are left out, the record's `packed` naming the rules, and a grade met before in the log is a blob too.
 * The writer checks each field against its rule before leaving it out, so whatever wrote the record (a simulated or a
 * real provider, an error, a recorded transcript), decoding gives back the record exactly as it was before encoding:
 * the same JSON, key order included.
 */

/*
 * The hashes of the last texts hashed: every turn of every case refers to one of a few prompts and tool lists, and
 * hashing the same prompt again on each turn was ~4% of an eval's CPU. A Map keyed by the text: V8 keeps a string's
 * hash in the string, so the same prompt (one string the renderer made once) is found without reading it. Bounded
 * in entries and characters; emptied when full (the next texts are hashed again).
 */
const hashMemo = new Map<string, string>();
let memoChars = 0;
const MEMO_ENTRIES = 64;
const MEMO_CHARS = 4 << 20;

/** The hash of a blob's text: 16 hex digits of its SHA-256 (a writer refuses two texts with one hash). */
export function blobHash(text: string): string {
  const known = hashMemo.get(text);
  if (known !== undefined) return known;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  if (text.length <= MEMO_CHARS) {
    if (hashMemo.size >= MEMO_ENTRIES || memoChars + text.length > MEMO_CHARS) {
      hashMemo.clear();
      memoChars = 0;
    }
    hashMemo.set(text, hash);
    memoChars += text.length;
  }
  return hash;
}

/** A blob line of format 2. */
export interface BlobLine {
  type: 'blob';
  hash: string;
  text: string;
}

/** An error in a line of format 2, named by the reader with file:line. */
export class BlobFormatError extends Error {}

const sameKeys = (v: Record<string, unknown>, keys: readonly string[]) => {
  const own = Object.keys(v);
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
};

/**
 * A reply whose raw response is exactly `{text, toolCalls}` of the reply itself (the simulated providers') is written
 * with `rawIsReply: true` and no `raw.response`; the decoder puts it back.
 */
export function encodeResponse(response: Turn['response']): unknown {
  const raw = (response as { raw?: unknown }).raw;
  if (!isObject(raw) || !sameKeys(raw, ['request', 'response']) || Object.hasOwn(response, 'rawIsReply'))
    return response;
  const reply = raw.response;
  if (!isObject(reply) || !sameKeys(reply, ['text', 'toolCalls'])) return response;
  try {
    if (JSON.stringify(reply) !== JSON.stringify({ text: response.text, toolCalls: response.toolCalls }))
      return response;
  } catch {
    return response; // nested too deep for JSON.stringify (a model's arguments can be): written whole
  }
  return { ...response, raw: { request: raw.request }, rawIsReply: true };
}

export function decodeResponse(response: unknown): unknown {
  if (!isObject(response) || response.rawIsReply !== true) return response;
  const { rawIsReply: _, ...rest } = response;
  if (!isObject(rest.raw)) throw new BlobFormatError('a response with rawIsReply has no raw');
  return { ...rest, raw: { request: rest.raw.request, response: { text: rest.text, toolCalls: rest.toolCalls } } };
}
