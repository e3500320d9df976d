import type { Grade } from '../contracts/grade.js';
import type { Turn } from '../contracts/transcript.js';
import { jsonText } from '../util/json-text.js';
import { type BlobLine, blobHash, encodeResponse } from './blobs.js';
import {
  continuationOf,
  finalTextOf,
  gradeText,
  isDerivedKey,
  isDerivedMeta,
  isDerivedUsage,
  isObject,
  isSimEnvelope,
  RULES,
  seedOf,
} from './packing.js';
import { blankRepeats, findRepeatedStrings } from './repeated-strings.js';
import { sameJson } from './same-json.js';
import type { CaseRecord } from './schema.js';
import { cutWirePrefix } from './wire-prefix.js';

/** A system prompt shorter than this stays inline (a blob line and a reference would cost more). */
const MIN_BLOB_CHARS = 64;

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

/** Grade blobs one writer makes at most (a reader keeps every blob), graders it keeps slots for, slots a grader has. */
const MAX_GRADE_BLOBS = 1024;
const MAX_GRADERS = 64;
const GRADE_SLOTS = 8;
/** Grades of one grader over which its share found in a slot is told (under an eighth: it is not looked for a while). */
const GRADE_WINDOW = 256;

/**
 * Encodes records for format 2 and remembers which blobs this log holds already; `blob` is called with each blob
 * line to write before the record. Memory grows with the distinct texts, not with the records.
 */
export class BlobEncoder {
  private readonly written = new Map<string, string>();
  /**
   * The JSON of a request's tool list, by the list's identity: a strategy's cases and turns share one read-only list
   * (the renderer's), which a catalog with distractors makes a hundred tools long. Frees with the list.
   */
  private readonly toolsJson = new WeakMap<object, string>();
  /** The hash of each blob's text, for rule d (a long string of a record that a blob of this log holds). */
  private readonly hashOfText = new Map<string, string>();
  /** Rule m needs the run's seed: from the header of the log written (useHeader). */
  private seed: number | undefined;
  /** The grades each grader gave last, a blob's hash with those written as blobs (see encodeGrades). */
  private readonly gradeSlots = new Map<string, GradeSlots>();
  private gradeBlobs = 0;

  constructor(
    private readonly blob: (line: BlobLine) => void,
    /** Rule g (repeated grades as blobs); see RunLogOptions.gradeBlobs. */
    private readonly gradeBlobsOn = true,
  ) {}

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
      this.hashOfText.set(text, hash);
      this.blob({ type: 'blob', hash, text });
    } else if (known !== text) {
      throw new Error(`run log: two different texts have the blob hash ${hash}`);
    }
    return hash;
  }

  /**
   * The record as format 2 writes it (a new object; the record is not changed). A record that holds `packed`
   * already is in the written form (read raw from a log) and goes out as it is. A field left out is set to undefined
   * in the copy (the JSON writer leaves it out): copying by spread and no `delete` keeps the objects fast to write.
   */
  encode(record: CaseRecord): Record<string, unknown> {
    if (Object.hasOwn(record, 'packed')) return record;
    // Grades first, once: whether a grade is a blob does not depend on the other rules.
    const grades = this.gradeBlobsOn && Array.isArray(record.grades) ? this.encodeGrades(record.grades) : undefined;
    let allowed = ALL;
    for (;;) {
      this.used = 0;
      this.lacking = 0;
      const out = this.encodeWith(record, allowed, grades);
      const conflict = this.used & this.lacking;
      if (conflict === 0) return Object.hasOwn(record, 'same') ? out : this.writeRepeatsOnce(out);
      // A turn lacks a field that a rule used on another turn would give it on read: encode without that rule.
      allowed &= ~conflict;
    }
  }

  /**
   * Rule d, on the record as it will be written: each long string met before in it (or held by a blob of this log)
   * written as null, `same` saying where it is. Only a record holding a wire exchange is searched: the others (the
   * simulated providers', recorded replies) keep no second copy of a reply, and are many.
   */
  private writeRepeatsOnce(out: Record<string, unknown>): Record<string, unknown> {
    if (!holdsWireExchange(out)) return out;
    const same = findRepeatedStrings(out, (text) => this.hashOfText.get(text));
    if (!same) return out;
    blankRepeats(out, same);
    out.packed = rulesOf(this.used | BIT.d);
    out.same = same;
    return out;
  }

  /** Rules used, and rules a turn cannot take (it lacks the field the rule would restore), of the record encoded. */
  private used = 0;
  private lacking = 0;
  private allowed = ALL;

  private use(rule: number, applies: boolean): boolean {
    if (!applies || (this.allowed & rule) === 0) return false;
    this.used |= rule;
    return true;
  }

  private encodeWith(
    record: CaseRecord,
    allowed: number,
    grades: { grades: unknown[]; refs: boolean } | undefined,
  ): Record<string, unknown> {
    this.allowed = allowed;
    const transcript = record.transcript as unknown;
    const turns = isObject(transcript) && Array.isArray(transcript.turns) ? (transcript.turns as Turn[]) : undefined;
    const encodedTranscript = isObject(transcript) ? this.encodeTranscript(record, transcript, turns) : transcript;
    const encodedGrades = grades && this.use(BIT.g, grades.refs) ? grades.grades : record.grades;
    const runnerOrder = inOrder(record, RECORD_FIELDS);
    const omitKey = this.use(
      BIT.k,
      isDerivedKey(record.key, record) && (runnerOrder ? present(record.type) : follows(record, 'key', 'type')),
    );
    const omitUsage =
      turns !== undefined &&
      this.use(
        BIT.u,
        isDerivedUsage(record.usage, turns) &&
          (runnerOrder ? present(record.durationMs) : follows(record, 'usage', 'durationMs')),
      );
    const packed = this.used !== 0 ? rulesOf(this.used) : undefined;
    if (!runnerOrder) {
      const out: Record<string, unknown> = { ...record, transcript: encodedTranscript, grades: encodedGrades };
      if (omitKey) out.key = undefined;
      if (omitUsage) out.usage = undefined;
      if (packed) out.packed = packed;
      return out;
    }
    // The fields in the runner's order, written as one literal: a copy by spread that then takes a new field
    // (`packed`) cost more than the rest of the packing together.
    return {
      type: record.type,
      key: omitKey ? undefined : record.key,
      suite: record.suite,
      case: record.case,
      renderer: record.renderer,
      provider: record.provider,
      simulated: record.simulated,
      repeat: record.repeat,
      protocol: record.protocol,
      catalogHash: record.catalogHash,
      catalogDrift: record.catalogDrift,
      promptTokens: record.promptTokens,
      tags: record.tags,
      transcript: encodedTranscript,
      grades: encodedGrades,
      startedAt: record.startedAt,
      durationMs: record.durationMs,
      usage: omitUsage ? undefined : record.usage,
      error: record.error,
      packed,
    };
  }

  private encodeTranscript(
    record: CaseRecord,
    transcript: Record<string, unknown>,
    turns: Turn[] | undefined,
  ): Record<string, unknown> {
    if (!turns) return transcript;
    const encoded = this.encodeTurns(record, turns);
    const f = transcript.finalText;
    const runnerOrder = inOrder(transcript, TRANSCRIPT_FIELDS);
    const omit =
      typeof f === 'string' &&
      this.use(
        BIT.f,
        f === finalTextOf(turns) &&
          (runnerOrder ? present(transcript.turns) : follows(transcript, 'finalText', 'turns')),
      );
    if (runnerOrder)
      return {
        turns: encoded,
        finalText: omit ? undefined : f,
        stopReason: transcript.stopReason,
        state: transcript.state,
      };
    const out: Record<string, unknown> = { ...transcript, turns: encoded };
    if (omit) out.finalText = undefined;
    return out;
  }

  private encodeTurns(record: CaseRecord, turns: unknown[]): unknown[] {
    let prev: Record<string, unknown> | undefined;
    const out = new Array<unknown>(turns.length);
    for (let i = 0; i < turns.length; i++) {
      const turn = turns[i];
      const previous = prev;
      prev = isObject(turn) ? turn : undefined;
      out[i] = isObject(turn) && isObject(turn.request) ? this.encodeTurn(record, turn, i, previous) : turn;
    }
    return out;
  }

  private encodeTurn(
    record: CaseRecord,
    turn: Record<string, unknown>,
    i: number,
    previous: Record<string, unknown> | undefined,
  ): Record<string, unknown> {
    const request = turn.request as Record<string, unknown>;
    if (!present(request.meta)) this.lacking |= BIT.m;
    if (!present(request.protocol)) this.lacking |= BIT.p;
    if (i > 0 && !present(request.messages)) this.lacking |= BIT.c;
    const entries = Object.entries(request);
    const out: Record<string, unknown> = {};
    let toolsChars: number | undefined;
    let prevKey = '';
    for (let j = 0; j < entries.length; j++) {
      const [k, v] = entries[j] as [string, unknown];
      if (!present(v)) continue;
      if (k === 'system' && typeof v === 'string' && v.length >= MIN_BLOB_CHARS) out.systemRef = this.ref(v);
      else if (k === 'tools' && Array.isArray(v) && v.length > 0) {
        let text = this.toolsJson.get(v);
        if (text === undefined) {
          text = jsonText(v) as string;
          this.toolsJson.set(v, text);
        }
        toolsChars = text.length;
        out.toolsRef = this.ref(text);
      } else if (k === 'messages' && Array.isArray(v)) {
        const prior = isObject(previous?.request) ? previous.request.messages : undefined;
        if (this.use(BIT.c, i > 0 && prevKey === 'system' && sameMessages(v, continuationOf(previous)))) {
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
      } else if (k === 'protocol' && this.use(BIT.p, v === record.protocol && prevKey === 'messages')) {
        // restored after `messages`
      } else if (
        k === 'meta' &&
        this.use(BIT.m, isDerivedMeta(v, record, this.seed, turn.index) && isLast(entries, j))
      ) {
        // restored last
      } else out[k] = v;
      prevKey = k;
    }
    const response = turn.response as Turn['response'];
    let encoded: unknown = response;
    if (isObject(response)) {
      if (!present(response.raw)) this.lacking |= BIT.s;
      if (this.use(BIT.s, record.simulated === true && isSimEnvelope(response, request, toolsChars)))
        encoded =
          response.toolCalls.length > 0
            ? { text: response.text, toolCalls: response.toolCalls }
            : { text: response.text };
      else encoded = encodeResponse(this.cutWirePrefix(response, i, previous));
    }
    return { ...turn, request: out, response: encoded };
  }

  /** Rule w: the reply with its raw request cut to what it adds to the previous turn's, and `rawPrior`. */
  private cutWirePrefix(
    response: Turn['response'],
    i: number,
    previous: Record<string, unknown> | undefined,
  ): Turn['response'] {
    const raw = response.raw as unknown;
    if (i === 0 || !isObject(raw) || Object.hasOwn(response, 'rawPrior')) return response;
    const before = isObject(previous?.response) ? previous.response.raw : undefined;
    const cut = cutWirePrefix(raw.request, isObject(before) ? before.request : undefined);
    if (!cut || !this.use(BIT.w, true)) return response;
    return { ...response, raw: { ...raw, request: cut.request }, rawPrior: cut.prior } as unknown as Turn['response'];
  }

  /*
   * Grades, each met before in this log given as the hash of a blob holding it. Each grader has a few slots holding
   * the grades it gave last (a grade is compared with them field by field, its reason first, which tells most
   * grades apart at once): a grade becomes a blob only when it equals one met before (no grade is written as JSON
   * twice, no blob is used once), and a repeated one then costs a comparison rather than a serialisation. Keyed by
   * the grader's name, not by the reason: hashing each grade's reason cost more than the grades blobs saved when
   * most reasons differ (recorded replies graded offline). A slot holds the record's own grade until it becomes a
   * blob (its JSON is written from the grade in hand), then the blob's text read back.
   */
  private encodeGrades(grades: unknown[]): { grades: unknown[]; refs: boolean } {
    let out: unknown[] | undefined;
    for (let i = 0; i < grades.length; i++) {
      const grade = grades[i];
      if (typeof grade === 'string') {
        this.lacking |= BIT.g; // (never in a record; a string would read as a reference)
        return { grades, refs: false };
      }
      if (!isObject(grade) || typeof grade.grader !== 'string' || typeof grade.reason !== 'string') continue;
      let slots = this.gradeSlots.get(grade.grader);
      if (slots === undefined) {
        if (this.gradeSlots.size >= MAX_GRADERS) continue;
        slots = { slot: [], next: 0, tried: 0, found: 0, skip: 0 };
        this.gradeSlots.set(grade.grader, slots);
      }
      if (slots.skip > 0) {
        slots.skip--;
        continue;
      }
      const hash = this.gradeRef(grade, slots);
      if (++slots.tried === GRADE_WINDOW) {
        // Looking costs more than it saves for a grader whose grades seldom repeat (reasons naming each case's
        // arguments): its next grades are written as they are, then it is given another window.
        if (slots.found * 8 < GRADE_WINDOW) slots.skip = 16 * GRADE_WINDOW;
        slots.tried = 0;
        slots.found = 0;
      }
      if (hash === undefined) continue;
      slots.found++;
      out ??= [...grades];
      out[i] = hash;
    }
    return { grades: out ?? grades, refs: out !== undefined };
  }

  /** The hash of the blob holding `grade` when it equals a grade in `slots`; else it takes a slot. */
  private gradeRef(grade: Record<string, unknown>, slots: GradeSlots): string | undefined {
    const { slot } = slots;
    for (let n = 0; n < slot.length; n++) {
      const held = slot[n] as GradeSlot;
      const other = held.grade as Record<string, unknown>;
      if (grade.reason !== other.reason || grade.pass !== other.pass || !sameJson(grade, other)) continue;
      if (held.hash !== undefined) return held.hash;
      if (this.gradeBlobs >= MAX_GRADE_BLOBS) return undefined;
      const text = gradeText(grade as unknown as Grade);
      if (text === undefined) return undefined;
      this.gradeBlobs++;
      held.hash = this.ref(text);
      held.grade = JSON.parse(text);
      return held.hash;
    }
    if (slot.length < GRADE_SLOTS) {
      slot.push({ grade, hash: undefined });
      return undefined;
    }
    // Round robin over the slots, passing over those holding a blob while one does not.
    for (let tries = 0; tries < GRADE_SLOTS; tries++) {
      const held = slot[slots.next] as GradeSlot;
      slots.next = (slots.next + 1) % GRADE_SLOTS;
      if (held.hash === undefined || tries === GRADE_SLOTS - 1) {
        held.grade = grade;
        held.hash = undefined;
        break;
      }
    }
    return undefined;
  }
}

interface GradeSlots {
  slot: GradeSlot[];
  /** The slot the next grade not held replaces. */
  next: number;
  /** Grades of this grader compared in the current window, and those found in a slot. */
  tried: number;
  found: number;
  /** Grades of this grader to write without looking (a grader whose grades rarely repeat: see GRADE_WINDOW). */
  skip: number;
}

interface GradeSlot {
  grade: unknown;
  hash: string | undefined;
}

/** Whether a turn of the encoded record holds a raw wire request or response (a real provider's exchange). */
function holdsWireExchange(out: Record<string, unknown>): boolean {
  const transcript = out.transcript;
  if (!isObject(transcript) || !Array.isArray(transcript.turns)) return false;
  for (const t of transcript.turns) {
    const raw = isObject(t) && isObject(t.response) ? t.response.raw : undefined;
    if (isObject(raw) && (raw.request !== undefined || raw.response !== undefined)) return true;
  }
  return false;
}

/** Whether no field after the `j`th holds a value the log holds. */
function isLast(entries: [string, unknown][], j: number): boolean {
  for (let n = j + 1; n < entries.length; n++) if (present(entries[n]?.[1])) return false;
  return true;
}

/** Whether the field `key` follows `before` among the fields `v` holds (where the decoder puts it back). */
function follows(v: Record<string, unknown>, key: string, before: string): boolean {
  // for-in, not Object.keys: no array made (V8 walks its cached key list)
  let prev = '';
  for (const k in v) {
    if (k === key) return prev === before;
    if (v[k] !== undefined) prev = k;
  }
  return false;
}

/** A case record's fields in the order the runner writes them (run-case.ts), and a transcript's (conversation.ts, run-case.ts). */
const RECORD_FIELDS = [
  'type',
  'key',
  'suite',
  'case',
  'renderer',
  'provider',
  'simulated',
  'repeat',
  'protocol',
  'catalogHash',
  'catalogDrift',
  'promptTokens',
  'tags',
  'transcript',
  'grades',
  'startedAt',
  'durationMs',
  'usage',
  'error',
];
const TRANSCRIPT_FIELDS = ['turns', 'finalText', 'stopReason', 'state'];

/** Whether every field of `v` is one of `fields`, in that order (some may be absent). */
function inOrder(v: Record<string, unknown>, fields: readonly string[]): boolean {
  // a walk along `fields` (property names are interned: each comparison is of two pointers), no lookup
  let i = 0;
  for (const k in v) {
    while (i < fields.length && fields[i] !== k) i++;
    if (i === fields.length) return false;
    i++;
  }
  return true;
}

/** The rules' bits, in one order: the letters of RULES. */
const LETTERS_IN_ORDER = [
  RULES.key,
  RULES.usage,
  RULES.finalText,
  RULES.meta,
  RULES.protocol,
  RULES.fedBack,
  RULES.simEnvelope,
  RULES.gradeRefs,
  RULES.wirePrefix,
  RULES.repeatedStrings,
];
const BIT = { k: 1, u: 2, f: 4, m: 8, p: 16, c: 32, s: 64, g: 128, w: 256, d: 512 } as const;
const ALL = 1023;

/** The `packed` field of a record that used the rules `bits` (made once per set of rules). */
const PACKED = Array.from({ length: ALL + 1 }, (_, bits) =>
  LETTERS_IN_ORDER.filter((_, b) => bits & (1 << b)).join(''),
);
const rulesOf = (bits: number): string => PACKED[bits] as string;
