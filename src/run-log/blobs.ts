import { createHash } from 'node:crypto';
import type { Grade } from '../contracts/grade.js';
import type { Turn } from '../contracts/transcript.js';
import { jsonText } from '../util/json-text.js';
import {
  continuationOf,
  finalTextOf,
  gradeText,
  isDerivedMeta,
  isDerivedUsage,
  isObject,
  isSimEnvelope,
  keyOf,
  knownRules,
  metaOf,
  RULES,
  seedOf,
  simEnvelope,
  usageOf,
} from './packing.js';
import type { CaseRecord } from './schema.js';

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

/** A system prompt shorter than this stays inline (a blob line and a reference would cost more). */
const MIN_BLOB_CHARS = 64;

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

/** Whether `messages` is exactly `expected` (the messages they share with the previous turn are mostly the same objects). */
function sameMessages(messages: readonly unknown[], expected: readonly unknown[] | undefined): boolean {
  if (!expected || expected.length !== messages.length) return false;
  try {
    return messages.every((m, i) => sameMessage(m, expected[i]));
  } catch {
    return false; // nested too deep for JSON.stringify: written whole
  }
}

/** Whether a field holds a value the log holds (JSON leaves out an undefined one). */
const present = (v: unknown) => v !== undefined;

/** Every rule a writer may use. */
const ALL_RULES = Object.values(RULES).join('');

/** Grade blobs one writer makes at most, and grades it remembers having seen once: a reader keeps every blob. */
const MAX_GRADE_BLOBS = 1024;
const MAX_GRADES_SEEN = 4096;

/**
 * Encodes records for format 2 and remembers which blobs this log holds already; `blob` is called with each blob
 * line to write before the record. Memory grows with the distinct texts, not with the records.
 */
export class BlobEncoder {
  private readonly written = new Map<string, string>();
  /** Rule m needs the run's seed: from the header of the log written (useHeader). */
  private seed: number | undefined;
  /** Grades written as blobs (their JSON → hash), and grades seen once (a grade is a blob from its second time on). */
  private readonly gradeBlobs = new Map<string, string>();
  private readonly gradesSeen = new Set<string>();

  constructor(private readonly blob: (line: BlobLine) => void) {}

  /** The header of the log the records go into (its first line); the decoder reads them with it. */
  useHeader(header: unknown): void {
    this.seed = seedOf(header);
  }

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

  /**
   * The record as format 2 writes it (a new object; the record is not changed). A record that holds `packed`
   * already is in the written form (read raw from a log) and goes out as it is.
   */
  encode(record: CaseRecord): Record<string, unknown> {
    if (Object.hasOwn(record, 'packed')) return record;
    let allowed = ALL_RULES;
    for (;;) {
      const out = this.encodeWith(record, allowed);
      if (out.conflict === '') return out.record;
      // A turn lacks a field that a rule used on another turn would give it on read: encode without that rule.
      allowed = [...allowed].filter((r) => !out.conflict.includes(r)).join('');
    }
  }

  private encodeWith(record: CaseRecord, allowed: string): { record: Record<string, unknown>; conflict: string } {
    const used = new Set<string>();
    const lacking = new Set<string>();
    const use = (rule: string, applies: boolean) => {
      if (!applies || !allowed.includes(rule)) return false;
      used.add(rule);
      return true;
    };
    const out: Record<string, unknown> = {};
    let prevKey = '';
    const turns = isObject(record.transcript) && Array.isArray(record.transcript.turns) ? record.transcript.turns : [];
    for (const [k, v] of Object.entries(record)) {
      if (!present(v)) continue;
      if (k === 'key' && use(RULES.key, prevKey === 'type' && v === keyOf(record))) {
        // restored after `type`
      } else if (k === 'usage' && use(RULES.usage, prevKey === 'durationMs' && isDerivedUsage(v, turns))) {
        // restored after `durationMs`
      } else if (k === 'transcript' && isObject(v)) {
        out.transcript = this.encodeTranscript(record, v, use, lacking);
      } else if (k === 'grades' && Array.isArray(v)) {
        out.grades = this.encodeGrades(v, use, lacking);
      } else out[k] = v;
      prevKey = k;
    }
    const conflict = [...used].filter((r) => lacking.has(r)).join('');
    if (used.size > 0) out.packed = [...used].join('');
    return { record: out, conflict };
  }

  private encodeTranscript(
    record: CaseRecord,
    transcript: Record<string, unknown>,
    use: (rule: string, applies: boolean) => boolean,
    lacking: Set<string>,
  ): Record<string, unknown> {
    const turns = transcript.turns;
    const out: Record<string, unknown> = {};
    let prevKey = '';
    for (const [k, v] of Object.entries(transcript)) {
      if (!present(v)) continue;
      if (k === 'turns' && Array.isArray(v)) out.turns = this.encodeTurns(record, v, use, lacking);
      else if (
        k === 'finalText' &&
        Array.isArray(turns) &&
        use(RULES.finalText, prevKey === 'turns' && v === finalTextOf(turns))
      ) {
        // restored after `turns`
      } else out[k] = v;
      prevKey = k;
    }
    return out;
  }

  private encodeTurns(
    record: CaseRecord,
    turns: unknown[],
    use: (rule: string, applies: boolean) => boolean,
    lacking: Set<string>,
  ): unknown[] {
    let prev: Record<string, unknown> | undefined;
    return turns.map((turn, i) => {
      const previous = prev;
      prev = isObject(turn) ? turn : undefined;
      if (!isObject(turn) || !isObject(turn.request)) return turn;
      const request = turn.request;
      const entries = Object.entries(request);
      let last = entries.length - 1;
      while (last >= 0 && !present(entries[last]?.[1])) last--;
      if (!present(request.meta)) lacking.add(RULES.meta);
      if (!present(request.protocol)) lacking.add(RULES.protocol);
      if (i > 0 && !present(request.messages)) lacking.add(RULES.fedBack);
      const out: Record<string, unknown> = {};
      let toolsChars: number | undefined;
      let prevKey = '';
      for (const [j, [k, v]] of entries.entries()) {
        if (!present(v)) continue;
        if (k === 'system' && typeof v === 'string' && v.length >= MIN_BLOB_CHARS) out.systemRef = this.ref(v);
        else if (k === 'tools' && Array.isArray(v) && v.length > 0) {
          const text = jsonText(v) as string;
          toolsChars = text.length;
          out.toolsRef = this.ref(text);
        } else if (k === 'messages' && Array.isArray(v)) {
          const prior = isObject(previous?.request) ? previous.request.messages : undefined;
          if (use(RULES.fedBack, i > 0 && prevKey === 'system' && sameMessages(v, continuationOf(previous)))) {
            // restored after `system`
          } else if (
            Array.isArray(prior) &&
            prior.length > 0 &&
            prior.length <= v.length &&
            sameMessages(v.slice(0, prior.length), prior)
          ) {
            out.priorMessages = prior.length;
            out.messages = v.slice(prior.length);
          } else out.messages = v;
        } else if (k === 'protocol' && use(RULES.protocol, v === record.protocol && prevKey === 'messages')) {
          // restored after `messages`
        } else if (k === 'meta' && use(RULES.meta, j === last && isDerivedMeta(v, record, this.seed, turn.index))) {
          // restored last
        } else out[k] = v;
        prevKey = k;
      }
      const response = turn.response as Turn['response'];
      let encoded: unknown = response;
      if (isObject(response)) {
        if (!present(response.raw)) lacking.add(RULES.simEnvelope);
        if (use(RULES.simEnvelope, record.simulated === true && isSimEnvelope(response, request, toolsChars))) {
          encoded =
            response.toolCalls.length > 0
              ? { text: response.text, toolCalls: response.toolCalls }
              : { text: response.text };
        } else encoded = encodeResponse(response);
      }
      return { ...turn, request: out, response: encoded };
    });
  }

  /** Grades, a grade this writer has met before given as the hash of a blob holding it. */
  private encodeGrades(
    grades: unknown[],
    use: (rule: string, applies: boolean) => boolean,
    lacking: Set<string>,
  ): unknown[] {
    if (grades.some((g) => typeof g === 'string')) {
      lacking.add(RULES.gradeRefs);
      return grades;
    }
    let refs = false;
    const out = grades.map((grade) => {
      const text = gradeText(grade as Grade);
      if (text === undefined) return grade;
      const known = this.gradeBlobs.get(text);
      if (known !== undefined) {
        refs = true;
        return known;
      }
      if (!this.gradesSeen.has(text)) {
        if (this.gradesSeen.size >= MAX_GRADES_SEEN) this.gradesSeen.clear();
        this.gradesSeen.add(text);
        return grade;
      }
      if (this.gradeBlobs.size >= MAX_GRADE_BLOBS) return grade;
      this.gradesSeen.delete(text);
      const hash = this.ref(text);
      this.gradeBlobs.set(text, hash);
      refs = true;
      return hash;
    });
    return use(RULES.gradeRefs, refs) ? out : grades;
  }
}

/** Reads blob lines and resolves the references of the records after them. Holds one text per distinct blob. */
export class BlobDecoder {
  private readonly blobs = new Map<string, string>();
  private seed: number | undefined;

  /** The header of the log (its first line): rule m restores the seed it holds. */
  useHeader(header: unknown): void {
    this.seed = seedOf(header);
  }

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

  /** The record with every reference resolved and every field left out restored (the record before encoding). */
  decode(record: Record<string, unknown>): Record<string, unknown> {
    const packed = record.packed ?? '';
    if (typeof packed !== 'string' || !knownRules(packed))
      throw new BlobFormatError(`packed: ${JSON.stringify(packed)} names a rule this toolgauge does not know`);
    if (packed.includes(RULES.meta) && this.seed === undefined)
      throw new BlobFormatError('packed: rule m restores the seed, and the header holds none (config.seed)');
    const rules = new Set(packed);
    const transcript = isObject(record.transcript)
      ? this.decodeTranscript(record, record.transcript, rules)
      : undefined;
    const turns = transcript && Array.isArray(transcript.turns) ? transcript.turns : [];
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) {
      if (k === 'packed') continue;
      if (k === 'transcript' && transcript) out.transcript = transcript;
      else if (k === 'grades' && rules.has(RULES.gradeRefs) && Array.isArray(v))
        out.grades = v.map((g, i) => (typeof g === 'string' ? JSON.parse(this.text(g, `grades.${i}`)) : g));
      else out[k] = v;
      if (k === 'type' && rules.has(RULES.key)) out.key = keyOf(record);
      if (k === 'durationMs' && rules.has(RULES.usage)) out.usage = usageOf(turns);
    }
    if (rules.has(RULES.key) && !Object.hasOwn(out, 'key')) out.key = keyOf(record);
    if (rules.has(RULES.usage) && !Object.hasOwn(out, 'usage')) out.usage = usageOf(turns);
    return out;
  }

  private decodeTranscript(
    record: Record<string, unknown>,
    transcript: Record<string, unknown>,
    rules: Set<string>,
  ): Record<string, unknown> {
    if (!Array.isArray(transcript.turns)) return transcript;
    const out: Record<string, unknown> = {};
    const turns = this.decodeTurns(record, transcript.turns, rules);
    for (const [k, v] of Object.entries(transcript)) {
      out[k] = k === 'turns' ? turns : v;
      if (k === 'turns' && rules.has(RULES.finalText)) out.finalText = this.finalText(turns);
    }
    return out;
  }

  private finalText(turns: unknown[]): string {
    const text = finalTextOf(turns);
    if (text === undefined)
      throw new BlobFormatError('packed: rule f restores finalText, and the last turn has no text');
    return text;
  }

  private decodeTurns(record: Record<string, unknown>, turns: unknown[], rules: Set<string>): unknown[] {
    let prev: Record<string, unknown> | undefined;
    return turns.map((turn: unknown, i: number) => {
      const previous = prev;
      const decoded = this.decodeTurn(record, turn, i, previous, rules);
      prev = isObject(decoded) ? decoded : undefined;
      return decoded;
    });
  }

  private decodeTurn(
    record: Record<string, unknown>,
    turn: unknown,
    i: number,
    previous: Record<string, unknown> | undefined,
    rules: Set<string>,
  ): unknown {
    if (!isObject(turn) || !isObject(turn.request)) return turn;
    const request = turn.request;
    const where = `transcript.turns.${i}.request`;
    const out: Record<string, unknown> = {};
    // Fields left out by a rule go back where the writer found them: after the field named, or last.
    const pending: { after: string; key: string; value: () => unknown }[] = [];
    if (rules.has(RULES.fedBack) && i > 0 && request.messages === undefined)
      pending.push({
        after: 'system',
        key: 'messages',
        value: () => {
          const messages = continuationOf(previous);
          if (!messages) throw new BlobFormatError(`${where}: rule c, and the previous turn has no reply to continue`);
          return messages;
        },
      });
    if (rules.has(RULES.protocol) && request.protocol === undefined)
      pending.push({
        after: 'messages',
        key: 'protocol',
        value: () => record.protocol,
      });
    if (rules.has(RULES.meta) && request.meta === undefined)
      pending.push({
        after: '',
        key: 'meta',
        value: () => metaOf(record as CaseRecord, this.seed as number, turn.index as number),
      });
    const emit = (k: string, v: unknown) => {
      out[k] = v;
      for (let n = 0; n < pending.length; n++) {
        const p = pending[n];
        if (p?.after !== k) continue;
        pending.splice(n, 1);
        emit(p.key, p.value());
        n = -1;
      }
    };
    let toolsChars: number | undefined;
    for (const [k, v] of Object.entries(request)) {
      if (k === 'systemRef') emit('system', this.text(v, `${where}.systemRef`));
      else if (k === 'toolsRef') {
        const text = this.text(v, `${where}.toolsRef`);
        toolsChars = text.length;
        emit('tools', JSON.parse(text));
      } else if (k === 'priorMessages') continue;
      else if (k === 'messages' && request.priorMessages !== undefined) {
        const n = request.priorMessages;
        const prior = isObject(previous?.request) ? previous.request.messages : undefined;
        if (typeof n !== 'number' || !Array.isArray(prior) || n > prior.length || !Array.isArray(v))
          throw new BlobFormatError(`${where}.priorMessages: ${JSON.stringify(n)} is more than the previous turn has`);
        emit('messages', [...prior.slice(0, n), ...v]);
      } else emit(k, v);
    }
    while (pending.length > 0) {
      const p = pending.shift() as (typeof pending)[number];
      emit(p.key, p.value());
    }
    let response = turn.response;
    if (rules.has(RULES.simEnvelope) && isObject(response) && response.raw === undefined) {
      if (typeof response.text !== 'string')
        throw new BlobFormatError(`transcript.turns.${i}.response: rule s, and the reply has no text`);
      const calls = (Array.isArray(response.toolCalls) ? response.toolCalls : []) as Turn['response']['toolCalls'];
      response = simEnvelope(out, response.text, calls, toolsChars);
    } else response = decodeResponse(response);
    return { ...turn, request: out, response };
  }
}
