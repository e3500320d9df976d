import { ToolFailure } from '../tool-kit.js';
import { blockEnd } from './code-index.js';
import { splitLines } from './workspace.js';

export const DEFAULT_LINE_LIMIT = 2000;

const indentOf = (line: string): number =>
  line.trim() === '' ? Number.POSITIVE_INFINITY : line.length - line.trimStart().length;

/**
 * Lines [start, end] (1-based) of the block around `anchor`: the nearest enclosing header (the anchor itself when it
 * opens a block with `{`, else the closest line above that is indented less) through its closing brace.
 */
export function indentationBlock(lines: string[], anchor: number): [number, number] {
  let a = anchor;
  while (a < lines.length && (lines[a - 1] ?? '').trim() === '') a++;
  let header = a;
  const anchorIndent = indentOf(lines[a - 1] ?? '');
  if (!/\{\s*$/.test(lines[a - 1] ?? '') && anchorIndent > 0) {
    const base = anchorIndent;
    while (header > 1 && indentOf(lines[header - 1] ?? '') >= base) header--;
  }
  const end = blockEnd(lines, header);
  if (end > header) return [header, end];
  // No braces (e.g. YAML or Markdown): the header and the lines indented deeper than it.
  const base = indentOf(lines[header - 1] ?? '');
  let last = header;
  while (last < lines.length && indentOf(lines[last] ?? '') > base) last++;
  return [header, last];
}

/** read_file output: `path`, the range shown, and numbered lines (`12 | code`). */
export function renderRead(
  path: string,
  content: string,
  opts: { mode?: string; offset?: number; limit?: number; anchorLine?: number },
): string {
  const lines = splitLines(content);
  if (lines.length === 0) return `File: ${path}\n(empty file)`;
  let start: number;
  let end: number;
  if (opts.mode === 'indentation') {
    const anchor = opts.anchorLine ?? opts.offset;
    if (anchor === undefined) throw new ToolFailure("read_file: mode 'indentation' needs anchor_line (1-based).");
    if (anchor > lines.length) {
      throw new ToolFailure(`read_file: anchor_line ${anchor} is past the end of ${path} (${lines.length} lines).`);
    }
    [start, end] = indentationBlock(lines, anchor);
  } else {
    start = opts.offset ?? 1;
    if (start > lines.length)
      throw new ToolFailure(`read_file: offset ${start} is past the end of ${path} (${lines.length} lines).`);
    end = Math.min(lines.length, start + (opts.limit ?? DEFAULT_LINE_LIMIT) - 1);
  }
  const width = String(end).length;
  const body = lines
    .slice(start - 1, end)
    .map((l, i) => `${String(start + i).padStart(width)} | ${l}`)
    .join('\n');
  const more = end < lines.length ? `\n(${lines.length - end} more lines; use offset ${end + 1} to continue)` : '';
  return `File: ${path}\nLines ${start}-${end} of ${lines.length}:\n${body}${more}`;
}
