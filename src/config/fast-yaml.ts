import { createRequire } from 'node:module';
import type { TagDefinition } from 'js-yaml';
import type { FileBytes } from '../util/file-bytes.js';
import { NOT_PLAIN, parsePlainYaml } from './plain-yaml.js';

type JsYaml = typeof import('js-yaml');
let loaded: { load: JsYaml['load']; schema: InstanceType<JsYaml['Schema']> } | undefined;

/**
 * js-yaml, loaded on first use (synchronously, from its CommonJS build), as the located parser is, with the YAML 1.2
 * core schema narrowed to where it and the located parser agree: an explicit tag on a number, boolean or null
 * (`!!float 1`) and a null key (`~: x`) are refused, so the located parser reads them as it always did.
 */
function jsYaml(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const { load, Schema, CORE_SCHEMA, NOT_RESOLVED, strTag } = createRequire(import.meta.url)('js-yaml') as JsYaml;
  const tags = CORE_SCHEMA.tags.map((tag): TagDefinition => {
    if (tag.nodeKind === 'scalar' && tag.tagName !== strTag.tagName) {
      return {
        ...tag,
        resolve: (source, explicit, name) => (explicit ? NOT_RESOLVED : tag.resolve(source, explicit, name)),
      };
    }
    if (tag.nodeKind === 'mapping') {
      return { ...tag, addPair: (map, key, value) => (key === null ? 'null key' : tag.addPair(map, key, value)) };
    }
    return tag;
  });
  loaded = { load, schema: new Schema(tags) };
  return loaded;
}

/** Items of a top-level block sequence parsed per js-yaml call: its parser keeps every event of a call in memory. */
export const FAST_YAML_BATCH = 256;

/** Texts shorter than this are parsed in one call: splitting only pays for large generated files. */
export const FAST_YAML_SPLIT_BYTES = 64 * 1024;

/** One batch of a top-level sequence: where its text starts (offset and 1-based line) and its item indices. */
export interface FastYamlBatch {
  key: string;
  first: number;
  count: number;
  start: number;
  end: number;
  line: number;
}

export type FastYaml = { ok: true; data: unknown; batches: readonly FastYamlBatch[] } | { ok: false };

/**
 * Parses YAML with no positions, several times faster and with far less memory than the `yaml` package: the plain
 * subset (plain-yaml.ts) by hand, the rest with js-yaml and the YAML 1.2 core schema (the schema of the located
 * parser). Not ok for anything js-yaml does not parse: a syntax error, a duplicate key, an unknown tag, more than one
 * document, and any alias (aliases are left to the located parser, which bounds their expansion). The caller then
 * parses with the located parser, which reports the problem at file:line:col or gives the data.
 *
 * A large file's top-level block sequences (`cases:` followed by `- …` items) are parsed in batches of
 * {@link FAST_YAML_BATCH} items, so the parsers' garbage stays small and a batch outside the plain subset costs
 * js-yaml for that batch only; the batches are returned so that a problem found later can be located by re-parsing
 * one batch only.
 */
export function parseYamlFast(text: string, splitBytes = FAST_YAML_SPLIT_BYTES): FastYaml {
  try {
    const { head, regions } = splitTopLevelSequences(text, splitBytes);
    if (regions.length === 0) return { ok: true, data: parseYamlPart(text), batches: [] };
    const batches: FastYamlBatch[] = [];
    const lists = new Map<string, unknown[]>();
    for (const r of regions) {
      const items: unknown[] = [];
      for (const b of r.batches) {
        const part = parseYamlPart(text.slice(b.start, b.end));
        if (!Array.isArray(part) || part.length !== b.count) return { ok: false };
        for (const item of part) items.push(item);
        batches.push(b);
      }
      lists.set(r.key, items);
    }
    const data = parseYamlPart(head);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false };
    const record = data as Record<string, unknown>;
    for (const [key, items] of lists) {
      // The key must be one of the head's keys with no value: anything else means the line was not what it looked like.
      if (!Object.hasOwn(record, key) || record[key] !== null) return { ok: false };
      record[key] = items;
    }
    return { ok: true, data, batches };
  } catch {
    return { ok: false };
  }
}

/** js-yaml with the narrowed core schema, loaded only for what the plain parser steps aside for; throws as js-yaml does. */
function loadJsYaml(text: string): unknown {
  return jsYaml().load(text, { schema: jsYaml().schema, maxAliases: 0 });
}

/**
 * One part of a text (a batch of a top-level sequence, or the head around them) by the plain parser, else js-yaml.
 * Throws on what js-yaml refuses; the caller then has the located parser read the whole file.
 */
export function parseYamlPart(text: string): unknown {
  const plain = parsePlainYaml(text);
  return plain === NOT_PLAIN ? loadJsYaml(text) : plain;
}

/**
 * What the scan for top-level sequences reads: a string (offsets in UTF-16 units) or a file's UTF-8 bytes (offsets in
 * bytes). The scan looks at ASCII only (spaces, `-`, `#`, line ends, key characters), which UTF-8 keeps as it is.
 */
interface ScanSource {
  // FileBytes (src/util/file-bytes.ts) is one: offsets are byte offsets, texts decoded from UTF-8.
  readonly length: number;
  code(i: number): number;
  /** The offset of the next `\n` at or after `pos`, or the length. */
  lineEnd(pos: number): number;
  text(start: number, end: number): string;
}

function stringSource(text: string): ScanSource {
  return {
    length: text.length,
    code: (i) => text.charCodeAt(i),
    lineEnd: (pos) => endOfLine(text, pos),
    text: (start, end) => text.slice(start, end),
  };
}

/** The head (everything outside the top-level block sequences) and the sequences, with offsets into the source. */
export interface SplitYaml {
  head: string;
  regions: readonly { key: string; batches: readonly FastYamlBatch[] }[];
}

function split(src: ScanSource, splitBytes: number): SplitYaml {
  const regions = src.length >= splitBytes ? topLevelSequences(src) : [];
  let head = '';
  let from = 0;
  for (const r of regions) {
    head += src.text(from, r.start);
    from = r.end;
  }
  head += src.text(from, src.length);
  return { head, regions };
}

/**
 * A large text split for a caller that parses it a batch at a time: the text outside the top-level block sequences
 * (the head, each sequence's key left with no value) and the batches of each sequence. No regions for a text
 * shorter than `splitBytes` or without such a sequence.
 */
function splitTopLevelSequences(text: string, splitBytes = FAST_YAML_SPLIT_BYTES): SplitYaml {
  return split(stringSource(text), splitBytes);
}

/**
 * {@link splitTopLevelSequences} on a file, read through a window (`FileBytes`): the batches' offsets are byte offsets
 * (a batch's text is `bytes.text(start, end)`), and the head is decoded.
 */
export function splitTopLevelSequencesOfFile(bytes: FileBytes): SplitYaml {
  return split(bytes, 0);
}

interface Region {
  key: string;
  /** The text taken out of the head: from the line after `key:` to the end of the sequence. */
  start: number;
  end: number;
  /** The 1-based line at `end`. */
  endLine: number;
  batches: FastYamlBatch[];
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]*(?:#[^\n]*)?\r?$/;

/**
 * Top-level keys written `key:` alone on their line whose value is a block sequence, with the batches of its items.
 * A line is read by its indentation only: a sequence item is a line at the sequence's indentation starting with `-`.
 * Anything this scan gets wrong makes a batch or the head fail to parse, or the checks in parseYamlFast fail.
 */
function topLevelSequences(src: ScanSource): Region[] {
  const regions: Region[] = [];
  // Directives, document markers and a byte-order mark are left to the whole-text parse.
  const c0 = src.code(0);
  if (c0 === 0x25 /* % */ || c0 === 0xfeff || c0 === 0xef /* UTF-8 BOM */ || src.text(0, 3) === '---') return regions;
  let pos = 0;
  let lineNo = 1;
  while (pos < src.length) {
    const lineEnd = src.lineEnd(pos);
    // Only a line that starts with a key character can be `key:`; most lines are indented.
    const m = isKeyStart(src.code(pos)) ? KEY_LINE.exec(src.text(pos, lineEnd)) : null;
    pos = lineEnd + 1;
    lineNo++;
    if (!m) continue;
    const region = sequenceAfter(src, m[1]!, pos, lineNo);
    if (!region) continue;
    regions.push(region);
    pos = region.end;
    lineNo = region.endLine;
  }
  return regions;
}

function isKeyStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function endOfLine(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  return nl < 0 ? text.length : nl;
}

/** Spaces at the start of the line at `pos`; -1 for a line that is blank or a comment. */
function indentOf(src: ScanSource, pos: number, lineEnd: number): number {
  let i = pos;
  while (i < lineEnd && src.code(i) === 32) i++;
  const c = src.code(i);
  if (i >= lineEnd || c === 35 /* # */ || c === 13 /* \r */) return -1;
  return i - pos;
}

function isItemStart(src: ScanSource, at: number, lineEnd: number): boolean {
  if (src.code(at) !== 45 /* - */) return false;
  const next = at + 1 < lineEnd ? src.code(at + 1) : 10;
  return next === 32 || next === 10 || next === 13;
}

function sequenceAfter(src: ScanSource, key: string, start: number, startLine: number): Region | undefined {
  let pos = start;
  let line = startLine;
  let seqIndent = -1;
  const batches: FastYamlBatch[] = [];
  let current: FastYamlBatch | undefined;
  let items = 0;
  let end = src.length;
  while (pos < src.length) {
    const lineEnd = src.lineEnd(pos);
    const indent = indentOf(src, pos, lineEnd);
    end = pos;
    if (indent >= 0) {
      if (seqIndent < 0) {
        if (!isItemStart(src, pos + indent, lineEnd)) return undefined;
        seqIndent = indent;
      }
      if (indent < seqIndent || (indent === seqIndent && !isItemStart(src, pos + indent, lineEnd))) {
        break;
      }
      if (indent === seqIndent) {
        if (!current || current.count === FAST_YAML_BATCH) {
          if (current) current.end = pos;
          current = { key, first: items, count: 0, start: pos, end: src.length, line };
          batches.push(current);
        }
        current.count++;
        items++;
      }
    }
    pos = lineEnd + 1;
    line++;
    end = Math.min(pos, src.length);
  }
  if (!current) return undefined;
  current.end = end;
  return { key, start, end, endLine: line, batches };
}

/**
 * YAML data for code that needs no positions (a report reading case tags): the fast parser, or the located parser
 * for what the fast one refuses (then it throws as `yaml` does).
 */
export function readYaml(text: string): unknown {
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      // YAML in flow style, or a broken file: the parsers below decide
    }
  }
  const fast = parseYamlFast(text);
  if (fast.ok) return fast.data;
  return (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
}
