import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Suite, SuiteCase } from '../contracts/suite.js';
import { FileBytes } from '../util/file-bytes.js';
import { which } from '../util/which.js';
import { checkExpectations, toolsKnownAtLoad } from './check-expectations.js';
import { parseYamlPart, splitTopLevelSequencesOfFile } from './fast-yaml.js';
import { loadYamlFile, type SemanticIssue } from './load-yaml.js';
import { tooDeepPath } from './nesting-limit.js';
import { type CaseBatch, casesOf, FileCases, type FileStamp, type SuiteCases } from './suite-cases.js';
import { CaseSchema, SuiteSchema } from './suite-schema.js';

/**
 * Names of the bundled mock MCP servers (mock-servers/mcp/index.ts), listed here so that loading a suite does not
 * load the servers and the MCP SDK (a third of the CLI's start-up); a test keeps the two in step.
 */
export const BUILTIN_SERVER_NAMES: readonly string[] = ['excel', 'economist', 'coder'];

/** A suite without its cases: what the run needs of it besides them (name, servers, inline tools, filter). */
export type SuiteHead = Omit<Suite, 'cases'>;

export interface LoadedSuite {
  file: string;
  suite: SuiteHead;
  cases: SuiteCases;
}

/**
 * A YAML suite file at least this large keeps its cases in the file rather than in memory (see FileCases): ~8,000
 * cases of the bench's size, ~2,000 of BFCL's. Below it, holding the cases costs a few MB of heap, less than reading
 * them again costs the commands that look cases up by id (offline grading, regrade).
 */
export const STREAM_SUITE_BYTES = 2 * 1024 * 1024;

export interface LoadSuiteOptions {
  /** Files at least this large are read again per batch when iterated (default {@link STREAM_SUITE_BYTES}). */
  streamBytes?: number;
}

/**
 * Loads and validates one suite file; problems are listed in one error, a line each with file:line:col. A suite
 * whose tools are all inline has its expected calls checked against them here; one with servers, once they are
 * listed at the start of a run (checkListedExpectations).
 */
export function loadSuite(file: string, options: LoadSuiteOptions = {}): LoadedSuite {
  const streamed = loadLargeSuite(file, options.streamBytes ?? STREAM_SUITE_BYTES);
  if (streamed) return streamed;
  const { data } = loadYamlFile(file, SuiteSchema, 'SUITE_INVALID', (s) => checkSuite(s, dirname(file)));
  const { cases, ...suite } = data;
  return { file, suite, cases: casesOf(cases) };
}

/**
 * A large block-style YAML suite, validated one batch of cases at a time and left in the file (FileCases): memory
 * for one batch, not for every case. Undefined when the file is small, JSON, not split into batches, or has any
 * problem at all: the whole-file loader then reads it, and reports each problem at its file:line:col as it always
 * has (a valid file gives the same cases either way).
 */
function loadLargeSuite(file: string, streamBytes: number): LoadedSuite | undefined {
  let bytes: FileBytes;
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size < streamBytes) return undefined;
    bytes = new FileBytes(file);
  } catch {
    return undefined; // the whole-file loader names the problem
  }
  try {
    const stamp = fstatStamp(bytes);
    return stamp && !startsWithBrace(bytes) ? validateLargeSuite(file, bytes, stamp) : undefined;
  } finally {
    bytes.close();
  }
}

/** The file's size and modification time, as the batches will be checked against (undefined if it changed already). */
function fstatStamp(bytes: FileBytes): FileStamp | undefined {
  const st = statSync(bytes.file);
  return st.size === bytes.length ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
}

function validateLargeSuite(file: string, bytes: FileBytes, stamp: FileStamp): LoadedSuite | undefined {
  const { head: headText, regions } = splitTopLevelSequencesOfFile(bytes);
  const textOf = (b: { start: number; end: number }) => bytes.text(b.start, b.end);
  const region = regions.find((r) => r.key === 'cases');
  if (!region) return undefined;
  try {
    const head = parseYamlPart(headText);
    if (typeof head !== 'object' || head === null || Array.isArray(head)) return undefined;
    // Every top-level sequence was taken out of the head, its key left with no value: the others (inline `tools:`)
    // go back in whole.
    const fields = head as Record<string, unknown>;
    for (const r of regions) {
      if (!Object.hasOwn(fields, r.key) || fields[r.key] !== null) return undefined;
      if (r === region) continue;
      const items: unknown[] = [];
      for (const b of r.batches) {
        const part = parseYamlPart(textOf(b));
        if (!Array.isArray(part) || part.length !== b.count) return undefined;
        items.push(...part);
      }
      fields[r.key] = items;
    }
    const dir = dirname(file);
    const seen = new Set<string>();
    let suite: SuiteHead | undefined;
    let count = 0;
    const batches: CaseBatch[] = [];
    for (const b of region.batches) {
      const items = parseYamlPart(textOf(b));
      if (!Array.isArray(items) || items.length !== b.count || tooDeepPath(items)) return undefined;
      // The suite's own rules (a suite needs servers, tools or functions in every case) hold for the whole file when
      // they hold with every batch.
      const checked = SuiteSchema.safeParse({ ...head, cases: items });
      if (!checked.success) return undefined;
      const { cases, ...rest } = checked.data;
      if (!suite) {
        suite = rest;
        if (checkHead(suite, dir).length > 0) return undefined;
      }
      for (const c of cases) {
        if (seen.has(c.id)) return undefined;
        seen.add(c.id);
      }
      if (toolsKnownAtLoad(suite) && checkExpectations(suite, cases, { serverTools: [] }, count).length > 0)
        return undefined;
      batches.push({ start: b.start, end: b.end, count: b.count });
      count += b.count;
    }
    if (!suite || count === 0) return undefined;
    return { file, suite, cases: new FileCases(file, batches, count, stamp, parseCases) };
  } catch {
    return undefined;
  }
}

/** A JSON document (the whole-file loader reads it with JSON.parse). */
function startsWithBrace(bytes: FileBytes): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes.code(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c === 0x7b;
  }
  return false;
}

/** One batch of a validated file, read again: exactly `count` cases, each valid (or it throws). */
function parseCases(text: string, count: number): SuiteCase[] {
  const items = parseYamlPart(text);
  if (!Array.isArray(items) || items.length !== count) throw new Error('not the batch that was validated');
  return items.map((item) => CaseSchema.parse(item));
}

function checkSuite(suite: Suite, dir: string): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const seen = new Map<string, number>();
  for (const [i, c] of suite.cases.entries()) {
    const prev = seen.get(c.id);
    if (prev !== undefined) {
      issues.push({
        path: ['cases', i, 'id'],
        message: `duplicate case id '${c.id}' (also cases[${prev}]); ids must be unique`,
      });
    } else seen.set(c.id, i);
  }
  issues.push(...checkHead(suite, dir));
  if (toolsKnownAtLoad(suite)) issues.push(...checkExpectations(suite, suite.cases, { serverTools: [] }));
  return issues;
}

/** The suite's servers: a built-in one must exist, a command must be found. */
function checkHead(suite: SuiteHead, dir: string): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  for (const [name, spec] of Object.entries(suite.servers ?? {})) {
    if ('builtin' in spec && !BUILTIN_SERVER_NAMES.includes(spec.builtin)) {
      issues.push({
        path: ['servers', name, 'builtin'],
        message: `unknown built-in server '${spec.builtin}'; valid: ${BUILTIN_SERVER_NAMES.join(', ')}`,
      });
    }
    if ('command' in spec) {
      const exe = spec.command[0]!;
      if (!which(exe, spec.cwd ?? dir)) {
        issues.push({
          path: ['servers', name, 'command', 0],
          message: `server command '${exe}' not found on PATH or on disk; install it or fix the path`,
        });
      }
    }
  }
  return issues;
}

/** The suite with every case in memory (for tools and tests that want the file's data as one value). */
export function wholeSuite(loaded: LoadedSuite): Suite {
  return { ...loaded.suite, cases: Array.from(loaded.cases) };
}
