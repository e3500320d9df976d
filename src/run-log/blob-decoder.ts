import type { Turn } from '../contracts/transcript.js';
import { BlobFormatError, blobHash, decodeResponse } from './blobs.js';
import {
  continuationOf,
  finalTextOf,
  isObject,
  keyOf,
  knownRules,
  metaOf,
  RULES,
  seedOf,
  simEnvelope,
  usageOf,
} from './packing.js';
import { restoreRepeats } from './repeated-strings.js';
import type { CaseRecord } from './schema.js';
import { restoreWirePrefix } from './wire-prefix.js';

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
    // rule d first: it was applied last, to the record as written
    if (rules.has(RULES.repeatedStrings)) {
      try {
        restoreRepeats(record, record.same, (hash) => this.text(hash, 'same'));
      } catch (e) {
        throw e instanceof BlobFormatError ? e : new BlobFormatError(`packed: rule d, and ${(e as Error).message}`);
      }
    }
    const transcript = isObject(record.transcript)
      ? this.decodeTranscript(record, record.transcript, rules)
      : undefined;
    const turns = transcript && Array.isArray(transcript.turns) ? transcript.turns : [];
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) {
      if (k === 'packed' || (k === 'same' && rules.has(RULES.repeatedStrings))) continue;
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
    if (rules.has(RULES.wirePrefix) && isObject(response) && response.rawPrior !== undefined)
      response = this.restoreWire(response, previous, i);
    return { ...turn, request: out, response };
  }

  /** Rule w: the reply's raw request, whole again from the previous turn's; `rawPrior` dropped. */
  private restoreWire(
    response: Record<string, unknown>,
    previous: Record<string, unknown> | undefined,
    i: number,
  ): Record<string, unknown> {
    const before = isObject(previous?.response) && isObject(previous.response.raw) ? previous.response.raw : undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(response)) {
      if (k === 'rawPrior') continue;
      if (k !== 'raw') {
        out[k] = v;
        continue;
      }
      if (!isObject(v)) throw new BlobFormatError(`transcript.turns.${i}.response: rule w, and the reply has no raw`);
      try {
        out.raw = { ...v, request: restoreWirePrefix(v.request, before?.request, response.rawPrior) };
      } catch (e) {
        throw new BlobFormatError(`transcript.turns.${i}.response: ${(e as Error).message}`);
      }
    }
    return out;
  }
}
