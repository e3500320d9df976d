import type { ParseDocument, Position, ReportedCall, ReportedDiagnostic } from '../api/parse-document.js';
import type { NameResolution } from '../util/resolve-tool-name.js';
import { visibleInline as v } from '../util/visible-text.js';

/** Longest argument or raw text shown on one line; the JSON output always has all of it. */
const MAX_SHOWN = 300;

/** ANSI styles, or none (output that is not a terminal, or NO_COLOR set). */
export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  good(s: string): string;
  bad(s: string): string;
  warn(s: string): string;
}

const plain = (s: string) => s;
export const PLAIN: Paint = { bold: plain, dim: plain, good: plain, bad: plain, warn: plain };
const sgr = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const ANSI: Paint = { bold: sgr(1, 22), dim: sgr(2, 22), good: sgr(32, 39), bad: sgr(31, 39), warn: sgr(33, 39) };

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function paintFor(stream: { isTTY?: boolean }): Paint {
  return stream.isTTY && !process.env.NO_COLOR ? ANSI : PLAIN;
}

/**
 * What `toolgauge parse` prints for one document: a heading (input, protocol, tools), then each call (name and the tool
 * it resolved to, arguments, shape, span, flags, the strict verdict), then the diagnostics. A reply with no call says so
 * first, and why the parser may have missed one. Every part that comes from the reply or the input (names,
 * arguments, ids, messages) has its control characters and line feeds made visible (visibleInline), so the text can
 * be written past the terminal guard with its colours.
 */
export function formatParseDocument(doc: ParseDocument, paint: Paint = PLAIN): string {
  const out: string[] = [];
  const where = v(doc.line !== undefined ? `${doc.input}:${doc.line}` : doc.input);
  const head = [where];
  if (doc.case !== undefined) head.push(`case ${v(doc.case)}`);
  if (doc.model !== undefined) head.push(`model ${v(doc.model)}`);
  if (doc.turns !== undefined) head.push(`${doc.turns} turns`);
  head.push(`protocol ${doc.protocol}`);
  head.push(doc.tools ? `tools: ${doc.tools.names.length} from ${v(doc.tools.source)}` : 'no tools given');
  out.push(paint.bold(head.join(' · ')));
  out.push(summary(doc, paint));
  for (const [i, call] of doc.calls.entries()) out.push('', ...callLines(call, i, doc, paint));
  out.push('');
  if (doc.diagnostics.length === 0) {
    out.push(paint.dim('no diagnostics'));
  } else {
    out.push(`diagnostics (${doc.diagnostics.length}):`);
    const width = Math.max(...doc.diagnostics.map((d) => d.code.length));
    for (const d of doc.diagnostics) out.push(diagnosticLine(d, width, paint));
  }
  if (doc.calls.length === 0 && !doc.tools) {
    out.push(
      paint.dim(
        'hint: without the offered tools (--suite S --case C, or --tools FILE) tool-named XML such as <read_file>…</read_file> is not read as a call',
      ),
    );
  }
  return `${out.join('\n')}\n`;
}

function summary(doc: ParseDocument, paint: Paint): string {
  const n = doc.calls.length;
  if (n === 0) return paint.warn('no tool call found in the reply');
  const found = `${n} call${n === 1 ? '' : 's'} found`;
  const verdict = `a strict ${doc.protocol} detector accepts ${doc.accepted === n ? (n === 1 ? 'it' : 'all') : doc.accepted}`;
  return `${found}; ${doc.accepted > 0 ? paint.good(verdict) : paint.bad(verdict)}`;
}

function callLines(call: ReportedCall, i: number, doc: ParseDocument, paint: Paint): string[] {
  const label = call.turn !== undefined ? `turn ${call.turn}, call ${i + 1}` : `call ${i + 1}`;
  const lines = [paint.bold(`${label}: ${v(call.name)}${resolution(call.resolved, paint)}`)];
  const row = (key: string, value: string) => lines.push(`  ${paint.dim(key.padEnd(9))} ${value}`);
  row('args', shown(compactJson(call.args)));
  if (call.via !== 'native' || call.repaired) row('raw', shown(JSON.stringify(call.rawArgs)));
  row('via', via(call));
  row('span', call.span ? spanText(call.span, call.from, call.to) : 'none (a native tool call, not text)');
  if (call.id !== undefined) row('id', v(call.id));
  const flags = [call.repaired ? 'repaired' : '', call.truncated ? 'truncated' : ''].filter(Boolean);
  if (flags.length > 0) row('flags', paint.warn(flags.join(', ')));
  row(
    'verdict',
    call.accepted
      ? paint.good(`accepted under ${doc.protocol}`)
      : paint.bad(`not accepted under ${doc.protocol}: ${v(call.rejected ?? 'not the protocol')}`),
  );
  return lines;
}

function resolution(r: NameResolution | null, paint: Paint): string {
  if (r === null) return '';
  switch (r.how) {
    case 'exact':
      return ` → ${v(r.tool)}${r.server && r.server !== 'inline' ? paint.dim(` (server ${v(r.server)})`) : ''}`;
    case 'qualified':
      return ` → ${v(r.tool)}${paint.dim(` (qualified name${r.server ? `, server ${v(r.server)}` : ''})`)}`;
    case 'provider-safe':
      return ` → ${v(r.tool)}${paint.dim(' (provider-safe form of the name)')}`;
    case 'ambiguous':
      return ` → ${paint.bad(`ambiguous: ${v(r.candidates.join(', '))}`)}`;
    case 'unknown':
      return ` → ${paint.bad('no offered tool has this name')}`;
  }
}

function via(call: ReportedCall): string {
  if (call.via === 'fenced') return `fenced (\`\`\`${v(call.fence ?? '')} fence holding ${v(call.inner ?? 'a call')})`;
  if (call.via === 'inline-code') return `inline-code (backticks holding ${v(call.inner ?? 'a call')})`;
  return call.via;
}

function diagnosticLine(d: ReportedDiagnostic, width: number, paint: Paint): string {
  const turn = d.turn !== undefined ? `turn ${d.turn}: ` : '';
  const at = d.span ? paint.dim(`  at ${spanText(d.span, d.from, d.to)}`) : '';
  return `  ${paint.warn(v(d.code).padEnd(width))}  ${turn}${v(d.message)}${at}`;
}

function spanText(span: [number, number], from?: Position, to?: Position): string {
  const lc = from && to ? ` (${from.line}:${from.col}–${to.line}:${to.col})` : '';
  return `${span[0]}–${span[1]}${lc}`;
}

function compactJson(v: unknown): string {
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

/** One line, at most MAX_SHOWN characters (before its control characters are made visible). */
function shown(s: string): string {
  const line = s.replace(/[\r\n]+/g, ' ');
  return v(line.length > MAX_SHOWN ? `${line.slice(0, MAX_SHOWN)}… (${line.length} characters)` : line);
}
