import { readFileSync } from 'node:fs';
import { ToolgaugeError } from '../errors.js';
import { type OutputLine, outputLineFromText } from '../offline/output-line.js';
import { displayPath } from '../util/display-path.js';

/** How `toolgauge parse` reads its input: one reply as written, or recorded-output JSONL lines as `grade` reads them. */
export type InputFormat = 'text' | 'jsonl';

/** The values `--format` accepts. */
export const INPUT_FORMATS: readonly InputFormat[] = ['text', 'jsonl'];

/** The input of `toolgauge parse`, read and checked. */
export type ParseInput =
  | { format: 'text'; label: string; text: string }
  | { format: 'jsonl'; label: string; lines: { n: number; line: OutputLine }[] };

/** Why the input was read as JSONL (named in a bad line's error, with the way to read it as text instead). */
type Reason = 'forced' | 'extension' | 'content';

/** Keys that make a JSON object a recorded-output line: it names a case and carries a reply. */
const CASE_KEYS = ['case', 'id'];
const REPLY_KEYS = ['output', 'raw', 'tool_calls', 'turns'];

/**
 * Reads the input of `toolgauge parse`: a file, or standard input for `-` (`source` undefined means standard input
 * too). A UTF-8 byte order mark is dropped, as `grade` does. The format is `forced`, or JSONL when the file is named
 * `*.jsonl` / `*.ndjson` or its first non-blank line is a JSON object naming a case (`case`, or BFCL's `id`) and
 * holding a reply (`output`, `raw`, `tool_calls` or `turns`); anything else is one reply as the model wrote it. So a
 * reply that is itself a JSON call (`{"name": …, "arguments": …}`) stays a reply. JSONL lines are checked with
 * `grade`'s schema and messages, and every line is checked before any is parsed.
 */
export async function readParseInput(source: string | undefined, forced?: InputFormat): Promise<ParseInput> {
  const fromStdin = source === undefined || source === '-';
  const label = fromStdin ? 'stdin' : displayPath(source);
  let text = fromStdin ? await readStdin() : readFile(source);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const reason: Reason | undefined =
    forced === 'jsonl'
      ? 'forced'
      : forced === 'text'
        ? undefined
        : !fromStdin && /\.(jsonl|ndjson)$/i.test(source)
          ? 'extension'
          : looksLikeOutputLine(text)
            ? 'content'
            : undefined;
  if (reason === undefined) return { format: 'text', label, text };
  return { format: 'jsonl', label, lines: jsonlLines(text, label, reason) };
}

function readFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a folder' : String(e);
    throw new ToolgaugeError(
      'USAGE',
      `${displayPath(file)}: ${why}; pass a file holding the reply (or JSONL lines), or - to read standard input`,
    );
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new ToolgaugeError('USAGE', 'no input: pass a file holding the reply, or pipe the reply into standard input');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function looksLikeOutputLine(text: string): boolean {
  const first = firstLine(text);
  if (first === undefined || !first.startsWith('{')) return false;
  let value: unknown;
  try {
    value = JSON.parse(first);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return CASE_KEYS.some((k) => k in value) && REPLY_KEYS.some((k) => k in value);
}

/** The first non-blank line, trimmed (only the start of the text is scanned). */
function firstLine(text: string): string | undefined {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).trim();
    if (line !== '') return line;
    start = end + 1;
  }
  return undefined;
}

function jsonlLines(text: string, label: string, reason: Reason): { n: number; line: OutputLine }[] {
  const hint =
    reason === 'content'
      ? ' (read as JSONL because line 1 is a recorded-output object; --format text reads the input as one reply)'
      : reason === 'extension'
        ? ' (read as JSONL because of the file name; --format text reads it as one reply)'
        : '';
  const out: { n: number; line: OutputLine }[] = [];
  const texts = text.split('\n');
  for (const [i, raw] of texts.entries()) {
    const n = i + 1;
    const line = outputLineFromText(raw.endsWith('\r') ? raw.slice(0, -1) : raw, n, label, hint);
    if (line) out.push({ n, line });
  }
  if (out.length === 0) {
    throw new ToolgaugeError(
      'USAGE',
      `${label}: no lines to parse (the input is empty); write one {"case": "<id>", "output": "…"} per line`,
    );
  }
  return out;
}
