import { existsSync } from 'node:fs';
import { caseCatalog } from '../catalog/case-catalog.js';
import { ServerPool } from '../catalog/server-pool.js';
import { loadToolsFile } from '../catalog/tools-file.js';
import { resolveSuitePath } from '../config/load-config.js';
import { type LoadedSuite, loadSuite } from '../config/load-suite.js';
import { casesById, findCase } from '../config/suite-cases.js';
import type { SuiteCase } from '../contracts/suite.js';
import { ToolgaugeError } from '../errors.js';
import { protocolFlag, protocolOf, textProtocolOf } from '../offline/recorded-transcript.js';
import { displayPath } from '../util/display-path.js';
import { type OfferedTools, type ParseDocument, parseDocument } from './parse-document.js';
import { INPUT_FORMATS, type InputFormat, readParseInput } from './parse-input.js';

export type { ParseDocument };

/** What `toolgauge parse` takes besides its input. */
export interface ParseOptions {
  /** Suite file or bundled suite name: its case's tools are the offered tools. */
  suite?: string;
  /** The case of a plain reply (JSONL lines name their own). */
  case?: string;
  /** A JSON file of tool definitions (MCP, tools/list, OpenAI or Anthropic shape). */
  tools?: string;
  /** The protocol the reply was asked for (as `grade --protocol`). */
  protocol?: string;
  /** `text` or `jsonl`: how to read the input instead of telling from its content. */
  format?: string;
}

/** What the parser made of the input: one document for a reply, one per line of recorded-output JSONL. */
export interface ParsedInput {
  /** How the input was read. */
  format: InputFormat;
  /**
   * The documents, made as they are read (the suite's servers start on first use and stop when the iteration ends,
   * or is left early).
   */
  documents: AsyncIterable<ParseDocument>;
}

/**
 * `toolgauge parse` as a function: what the parser makes of one reply (a file, or standard input for `-` or no
 * file), or of each line of recorded-output JSONL: every call with the tool it resolved to, its shape and place,
 * whether a strict detector for the protocol accepts it, and the diagnostics. Bad input is a USAGE error.
 */
export async function parse(file: string | undefined, flags: ParseOptions = {}): Promise<ParsedInput> {
  const forced = flags.protocol === undefined ? undefined : protocolFlag(flags.protocol);
  if (flags.format !== undefined && !INPUT_FORMATS.includes(flags.format as InputFormat)) {
    throw new ToolgaugeError(
      'USAGE',
      `--format ${flags.format}: unknown input format; valid: ${INPUT_FORMATS.join(', ')}`,
    );
  }
  if (flags.suite !== undefined && flags.tools !== undefined) {
    throw new ToolgaugeError(
      'USAGE',
      '--suite and --tools both give the offered tools; pass --suite S (with --case C) or --tools FILE, not both',
    );
  }
  if (flags.case !== undefined && flags.suite === undefined) {
    throw new ToolgaugeError('USAGE', `--case ${flags.case}: needs --suite S, the suite the case belongs to`);
  }
  const loaded = flags.suite !== undefined ? suiteOf(flags.suite) : undefined;
  const fileTools: OfferedTools | null = flags.tools
    ? { source: `file ${displayPath(flags.tools)}`, tools: loadToolsFile(flags.tools) }
    : null;
  const input = await readParseInput(file, flags.format as InputFormat | undefined);
  const textProtocol = forced ?? (loaded ? textProtocolOf(loaded) : 'xml-tags');

  if (input.format === 'text') {
    if (loaded && flags.case === undefined) {
      throw new ToolgaugeError(
        'USAGE',
        `--suite ${flags.suite}: a plain reply needs --case C to pick the tools it was offered; cases: ${caseIds(loaded)}`,
      );
    }
    const { text } = input;
    const testCase = loaded ? caseOf(loaded, flags.case as string, flags.suite as string) : undefined;
    async function* one(): AsyncGenerator<ParseDocument> {
      const tools = loaded ? new SuiteTools(loaded) : undefined;
      try {
        const offered = tools && testCase ? await tools.of(testCase) : fileTools;
        const reply = { text, toolCalls: [] };
        yield parseDocument({ input: input.label }, [reply], textProtocol, offered);
      } finally {
        await tools?.close();
      }
    }
    return { format: 'text', documents: one() };
  }

  if (flags.case !== undefined) {
    throw new ToolgaugeError(
      'USAGE',
      `--case ${flags.case}: each line of ${input.label} names its own case; drop --case (or pass --format text to read the input as one reply)`,
    );
  }
  const cases = loaded ? casesById(loaded.cases) : undefined;
  if (loaded && cases) {
    for (const { n, line } of input.lines) {
      if (!cases.has(line.caseId)) {
        throw new ToolgaugeError(
          'USAGE',
          `${input.label}:${n}: case '${line.caseId}' is not in suite ${loaded.suite.name} (${displayPath(loaded.file)}); fix the id or pass the right --suite`,
        );
      }
    }
  }
  async function* lines(): AsyncGenerator<ParseDocument> {
    if (input.format !== 'jsonl') return;
    const tools = loaded ? new SuiteTools(loaded) : undefined;
    try {
      for (const { n, line } of input.lines) {
        const c = cases?.get(line.caseId);
        const offered = tools && c ? await tools.of(c) : fileTools;
        const head = { input: input.label, line: n, case: line.caseId, ...(line.model ? { model: line.model } : {}) };
        const replies = line.turns.map((t) => ({ text: t.text, toolCalls: t.toolCalls }));
        yield parseDocument(head, replies, protocolOf(line.turns, textProtocol), offered);
      }
    } finally {
      await tools?.close();
    }
  }
  return { format: 'jsonl', documents: lines() };
}

/** The suite, resolved as `grade` resolves it; a name that is neither a file nor a bundled suite says so. */
function suiteOf(spec: string): LoadedSuite {
  const file = resolveSuitePath(spec, process.cwd());
  if (!existsSync(file)) {
    throw new ToolgaugeError(
      'USAGE',
      `--suite ${spec}: no such suite file, and no bundled suite of that name (suites/${spec}.yaml); pass a suite file or a bundled suite name`,
    );
  }
  return loadSuite(file);
}

function caseOf(loaded: LoadedSuite, id: string, spec: string): SuiteCase {
  const found = findCase(loaded.cases, (c) => c.id === id);
  if (!found) throw new ToolgaugeError('USAGE', `--case ${id}: no such case in ${spec}; valid: ${caseIds(loaded)}`);
  return found;
}

function caseIds(loaded: LoadedSuite): string {
  const ids = Array.from(loaded.cases, (c) => c.id);
  return `${ids.slice(0, 12).join(', ')}${ids.length > 12 ? `, … (${ids.length})` : ''}`;
}

/**
 * The tools each case of a suite offered, as eval and render list them (the live servers, bundled ones in-process, or
 * the inline tools, narrowed by the suite's and the case's filters). Servers start on first use, once per input.
 */
class SuiteTools {
  private readonly pool = new ServerPool();
  private readonly cache = new Map<string, OfferedTools>();

  constructor(private readonly loaded: LoadedSuite) {}

  async of(c: SuiteCase): Promise<OfferedTools> {
    const hit = this.cache.get(c.id);
    if (hit) return hit;
    const session = await this.pool.openCase(this.loaded, c);
    await session.release();
    const { tools } = caseCatalog({
      live: session.catalog,
      useCache: false,
      schemaDir: process.cwd(),
      suite: this.loaded.suite,
      testCase: c,
    });
    const offered = { source: `suite ${this.loaded.suite.name}, case ${c.id}`, tools };
    this.cache.set(c.id, offered);
    return offered;
  }

  close(): Promise<void> {
    return this.pool.closeAll();
  }
}
