import { gzipSync } from 'node:zlib';
import type { Turn } from '../contracts/transcript.js';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { jsonText } from '../util/json-text.js';

/** Where a stream of encoded chunks goes: a part file (BufferedFile) or memory. */
export interface TextOut {
  write(text: string): void;
  readonly bytes: number;
}

/** Text in memory, for the pure renderer. */
export class MemoryOut implements TextOut {
  readonly parts: string[] = [];
  bytes = 0;
  write(text: string): void {
    this.parts.push(text);
    this.bytes += Buffer.byteLength(text);
  }
  text(limit = Number.POSITIVE_INFINITY): string {
    const all = this.parts.join('');
    return limit >= this.bytes ? all : Buffer.from(all).subarray(0, limit).toString('utf8');
  }
}

/** Infrastructure errors of a run by code, per provider, with a few examples each. */
export interface ErrorTable {
  total: number;
  codes: {
    code: string;
    count: number;
    byProvider: Record<string, number>;
    examples: { key: string; message: string }[];
  }[];
}

/** A case is failing when it errored or any grader failed. */
export function isFailingRecord(r: CaseRecord): boolean {
  return r.error !== undefined || r.grades.some((g) => !g.pass);
}

/** Strings this long or longer are stored once per chunk and referenced by number. */
const INTERN_MIN = 24;
const EXAMPLES_PER_CODE = 3;

const json = (v: unknown) => jsonText(v, { indent: 2, indentLevels: 32 }) ?? 'undefined';

/** Cases of one chunk, with the chunk's string table. */
class Chunk {
  strings: string[] = [];
  private readonly ids = new Map<string, number>();
  items: unknown[] = [];
  s(text: string): string | number {
    if (text.length < INTERN_MIN) return text;
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(text);
      this.ids.set(text, id);
    }
    return id;
  }
}

/** gzip, then base64: what the page's script inflates with DecompressionStream. */
function encode(chunk: Chunk): string {
  return gzipSync(JSON.stringify({ s: chunk.strings, c: chunk.items }), { level: 9 }).toString('base64');
}

/** A stream of encoded chunks (`"b64","b64",…`) with the case count after each chunk and its end offset. */
class ChunkStream {
  private chunk = new Chunk();
  count = 0;
  /** Cases and bytes at the end of each written chunk. */
  readonly ends: { cases: number; bytes: number }[] = [];
  constructor(
    private readonly out: TextOut,
    private readonly size: number,
  ) {}
  /** The number of the chunk the next item goes into. */
  get current(): number {
    return this.ends.length;
  }
  push(build: (c: Chunk) => unknown): void {
    this.chunk.items.push(build(this.chunk));
    this.count++;
    if (this.chunk.items.length >= this.size) this.flush();
  }
  flush(): void {
    if (!this.chunk.items.length) return;
    this.out.write(`${this.ends.length ? ',' : ''}"${encode(this.chunk)}"`);
    this.ends.push({ cases: this.count, bytes: this.out.bytes });
    this.chunk = new Chunk();
  }
}

function messageParts(m: Turn['request']['messages'][number]): [string, string] {
  switch (m.role) {
    case 'user':
      return ['user', m.content];
    case 'assistant':
      return ['assistant', `${m.content}${m.toolCalls?.length ? `\n[tool calls] ${json(m.toolCalls)}` : ''}`];
    case 'tool':
      return [`tool ${m.name} (${m.toolCallId})${m.isError ? ' [error]' : ''}`, m.content];
  }
}

function isRecordedTurn(t: Turn): boolean {
  return t.response.finishReason === 'recorded' && t.request.system === '' && t.request.messages.length === 0;
}

/**
 * The JSON of a request's tool list, by the list's identity: the turns and cases of a strategy share one list, which a
 * catalog with distractors makes a hundred tools long. A WeakMap frees with the list.
 */
const toolsJson = new WeakMap<object, string>();

function toolsText(tools: Turn['request']['tools']): string {
  if (!tools?.length) return '';
  let text = toolsJson.get(tools);
  if (text === undefined) {
    text = json(tools);
    toolsJson.set(tools, text);
  }
  return text;
}

/** One turn, compactly: the system prompt and tools only when they changed, the new messages, the reply. */
function turnData(c: Chunk, t: Turn, prev: Turn | undefined): Record<string, unknown> {
  const r = t.response;
  const out: Record<string, unknown> = {
    pr: t.request.protocol,
    ...(t.userTurn !== undefined ? { ut: t.userTurn } : {}),
    rep: c.s(r.text),
    fin: r.finishReason,
    ms: r.latencyMs,
  };
  if (isRecordedTurn(t)) out.rec = 1;
  else {
    if (!prev || prev.request.system !== t.request.system) out.sys = c.s(t.request.system);
    const tools = toolsText(t.request.tools);
    if (tools && (!prev || toolsText(prev.request.tools) !== tools)) out.tools = c.s(tools);
    out.msgs = t.request.messages
      .slice(prev ? prev.request.messages.length : 0)
      .map((m) => messageParts(m).map((x) => c.s(x)));
  }
  if (r.usage) out.u = r.usage;
  if (r.toolCalls.length) out.nc = c.s(json(r.toolCalls));
  out.pc = c.s(json(t.parse.calls));
  if (t.parse.diagnostics.length) out.dg = c.s(json(t.parse.diagnostics));
  if (t.executed.length) {
    out.ex = t.executed.map((x) =>
      c.s(`${x.server}/${x.tool} ${json(x.args)}${x.isError ? ' [error]' : ''}\n→ ${x.result}`),
    );
  }
  return out;
}

export interface CaseDataCounts {
  total: number;
  failingTotal: number;
  passingTotal: number;
  /** Cases whose details (transcript) are in the page. */
  detailed: number;
  max: number;
  /** How many of the passing stream's chunks are kept, and the byte length they take. */
  passingChunks: number;
  passingBytes: number;
}

/**
 * The page's case data, collected as records go by: an index of every case (id, cell, tags, one outcome per grader,
 * error code; plain JSON) and each case's details (transcript, grades with reasons), in gzip+base64 chunks of `chunkSize` cases
 * with a string table each (a system prompt is stored once per chunk, not once per case). Details of failing cases
 * and of passing ones go into two streams; at most `maxDetails` cases have details, failing ones first, and the
 * page says how many. The index always lists every case, so every count on the page is true. Memory: one chunk per
 * stream, the error table and a few counters.
 */
export class HtmlCaseData {
  readonly renderers: string[];
  readonly providers: string[];
  readonly graders: string[] = [];
  private readonly index: TextOut;
  private indexed = 0;
  private readonly failing: ChunkStream;
  private readonly passing: ChunkStream;
  private readonly errorCodes = new Map<string, ErrorTable['codes'][number]>();
  private errorTotal = 0;
  private failingTotal = 0;
  private passingTotal = 0;
  private failingDetailed = 0;

  constructor(
    header: RunHeader,
    outs: { index: TextOut; failing: TextOut; passing: TextOut },
    private readonly opts: { maxDetails: number; chunkSize?: number },
  ) {
    this.renderers = header.strategies.map((s) => s.label);
    this.providers = header.providers.map((p) => p.label);
    const size = opts.chunkSize ?? 100;
    this.index = outs.index;
    this.failing = new ChunkStream(outs.failing, size);
    this.passing = new ChunkStream(outs.passing, size);
  }

  private idx(list: string[], v: string): number {
    let i = list.indexOf(v);
    if (i < 0) {
      i = list.length;
      list.push(v);
    }
    return i;
  }

  add(r: CaseRecord): void {
    const ordinal = this.indexed++;
    const failing = isFailingRecord(r);
    let where: string | 0 = 0;
    const detail = (c: Chunk) => this.detail(c, ordinal, r);
    if (failing) {
      this.failingTotal++;
      if (this.failingDetailed < this.opts.maxDetails) {
        this.failingDetailed++;
        where = `f${this.failing.current}`;
        this.failing.push(detail);
      }
    } else {
      this.passingTotal++;
      if (this.passing.count < this.opts.maxDetails) {
        where = `p${this.passing.current}`;
        this.passing.push(detail);
      }
    }
    if (r.error) this.addError(r);
    const grades = this.graders.map(() => '-');
    for (const g of r.grades) grades[this.idx(this.graders, g.grader)] = g.pass ? '1' : '0';
    const tags = r.tags ?? [];
    const entry = [
      r.key,
      r.suite,
      r.case,
      this.idx(this.renderers, r.renderer),
      this.idx(this.providers, r.provider),
      r.repeat,
      tags,
      grades.join(''),
      r.error?.code ?? 0,
      where,
    ];
    // The index is plain JSON (ids and keys stay greppable in the page); `<` escaped for the script element.
    this.index.write(`${ordinal ? ',' : ''}${scriptJson(entry)}`);
  }

  private addError(r: CaseRecord): void {
    const err = r.error as { code: string; message: string };
    this.errorTotal++;
    let e = this.errorCodes.get(err.code);
    if (!e) {
      e = { code: err.code, count: 0, byProvider: {}, examples: [] };
      this.errorCodes.set(err.code, e);
    }
    e.count++;
    e.byProvider[r.provider] = (e.byProvider[r.provider] ?? 0) + 1;
    if (e.examples.length < EXAMPLES_PER_CODE) e.examples.push({ key: r.key, message: err.message });
  }

  private detail(c: Chunk, ordinal: number, r: CaseRecord): unknown {
    const turns = r.transcript?.turns ?? [];
    return [
      ordinal,
      {
        gr: r.grades.map((g) => [g.grader, g.pass ? 1 : 0, c.s(g.reason)]),
        ...(r.error ? { err: [r.error.code, c.s(r.error.message)] } : {}),
        fin: c.s(r.transcript?.finalText ?? ''),
        stop: r.transcript?.stopReason ?? '',
        ms: r.durationMs,
        pt: r.promptTokens,
        u: r.usage,
        sim: r.simulated ? 1 : 0,
        proto: r.protocol,
        tu: turns.map((t, i) => turnData(c, t, turns[i - 1])),
        ...(r.transcript?.state ? { st: c.s(json(r.transcript.state)) } : {}),
      },
    ];
  }

  /** Writes the last partial chunks. Call once, before reading the outputs. */
  finish(): CaseDataCounts {
    this.failing.flush();
    this.passing.flush();
    const room = Math.max(0, this.opts.maxDetails - this.failingDetailed);
    let kept = 0;
    while (kept < this.passing.ends.length && (this.passing.ends[kept]?.cases ?? 0) <= room) kept++;
    const passingDetailed = kept ? (this.passing.ends[kept - 1]?.cases ?? 0) : 0;
    return {
      total: this.indexed,
      failingTotal: this.failingTotal,
      passingTotal: this.passingTotal,
      detailed: this.failingDetailed + passingDetailed,
      max: this.opts.maxDetails,
      passingChunks: kept,
      passingBytes: kept ? (this.passing.ends[kept - 1]?.bytes ?? 0) : 0,
    };
  }

  errors(): ErrorTable {
    return { total: this.errorTotal, codes: [...this.errorCodes.values()].sort((a, b) => b.count - a.count) };
  }

  /** The blob's metadata, written before the chunks. */
  meta(counts: CaseDataCounts): Record<string, unknown> {
    return {
      renderers: this.renderers,
      providers: this.providers,
      graders: this.graders,
      counts,
    };
  }
}

/** What JSON.stringify writes raw and a terminal acts on: DEL, C1, the bidi controls, the line separators (and `<`). */
const SCRIPT_RAW = /[<\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON for inside a <script type="application/json">: `<` written as \u003c so no `</script>` or `<!--` can end or
 * bend the element, and the characters JSON.stringify leaves raw that a terminal would act on (DEL, C1, bidirectional
 * controls, U+2028/U+2029) as \u escapes of the same characters, so the file shown with `cat` acts on nothing (the
 * page reads the same values). The base64 chunks need none of it.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(SCRIPT_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
