import { ToolFailure } from '../tool-kit.js';
import { splitLines } from './workspace.js';

/**
 * The SEARCH/REPLACE format of the coding agent's apply_diff tool (one or more blocks):
 *
 *   <<<<<<< SEARCH
 *   :start_line:12
 *   -------
 *   exact lines to find
 *   =======
 *   replacement lines
 *   >>>>>>> REPLACE
 *
 * Hand-written: the format is specific to that agent and no library parses it. Matching is line based and
 * exact, except that trailing whitespace is ignored; `:start_line:` picks among several matches.
 */
export interface DiffBlock {
  startLine: number | undefined;
  search: string[];
  replace: string[];
}

const BLOCK =
  /<<<<<<< SEARCH[^\n]*\n(?::start_line:\s*(\d+)\s*\n)?(?:-------[^\n]*\n)?([\s\S]*?)^=======[^\n]*\n([\s\S]*?)^>>>>>>> REPLACE/gm;

export const DIFF_FORMAT_HELP =
  'Expected one or more blocks of the form:\n<<<<<<< SEARCH\n:start_line:<line>\n-------\n<exact existing lines>\n=======\n<new lines>\n>>>>>>> REPLACE';

export function parseDiff(diff: string): DiffBlock[] {
  const blocks: DiffBlock[] = [];
  for (const m of diff.replace(/\r\n/g, '\n').matchAll(BLOCK)) {
    const toLines = (s: string | undefined) => (s ? splitLines(s.endsWith('\n') ? s : `${s}\n`) : []);
    blocks.push({ startLine: m[1] ? Number(m[1]) : undefined, search: toLines(m[2]), replace: toLines(m[3]) });
  }
  if (blocks.length === 0) throw new ToolFailure(`apply_diff: no SEARCH/REPLACE block found. ${DIFF_FORMAT_HELP}`);
  return blocks;
}

function matchesAt(lines: string[], search: string[], at: number, loose: boolean): boolean {
  return search.every((s, i) => {
    const l = lines[at + i];
    return l !== undefined && (loose ? l.trimEnd() === s.trimEnd() : l === s);
  });
}

function findMatch(lines: string[], block: DiffBlock): number {
  for (const loose of [false, true]) {
    const hits: number[] = [];
    for (let i = 0; i + block.search.length <= lines.length; i++) {
      if (matchesAt(lines, block.search, i, loose)) hits.push(i);
    }
    if (hits.length === 0) continue;
    if (block.startLine !== undefined) {
      const wanted = block.startLine - 1;
      return hits.reduce((best, h) => (Math.abs(h - wanted) < Math.abs(best - wanted) ? h : best));
    }
    return hits[0] ?? -1;
  }
  return -1;
}

/** Applies every block in order; throws ToolFailure (nothing applied) when a block does not match. */
export function applyDiff(path: string, content: string, diff: string): { content: string; applied: number } {
  let lines = splitLines(content);
  const blocks = parseDiff(diff);
  blocks.forEach((block, n) => {
    if (block.search.length === 0) {
      throw new ToolFailure(`apply_diff: SEARCH section of block ${n + 1} is empty. ${DIFF_FORMAT_HELP}`);
    }
    const at = findMatch(lines, block);
    if (at < 0) {
      const where = block.startLine !== undefined ? ` near line ${block.startLine}` : '';
      throw new ToolFailure(
        `apply_diff failed for ${path}: no match found${where} for SEARCH block ${n + 1}:\n${block.search.join('\n')}\n\n` +
          'The SEARCH content must match the file exactly (whitespace and indentation included). ' +
          'Use read_file to get the current content, then try again.',
      );
    }
    lines = [...lines.slice(0, at), ...block.replace, ...lines.slice(at + block.search.length)];
  });
  return { content: lines.length > 0 ? `${lines.join('\n')}\n` : '', applied: blocks.length };
}
