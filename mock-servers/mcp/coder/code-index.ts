import picomatch from 'picomatch';
import { ToolFailure } from '../tool-kit.js';
import { type CoderState, filesUnder, isDirectory, splitLines } from './workspace.js';

/**
 * Code definitions, regex search and a keyword "codebase search" over the virtual workspace.
 * Hand-written with simple regexes (the real agent uses tree-sitter and ripgrep, which would be overkill
 * for ten small files that the tests fully control).
 */
export interface Definition {
  kind: 'function' | 'class' | 'interface' | 'type' | 'method' | 'const';
  name: string;
  start: number;
  end: number;
  header: string;
}

const PATTERNS: [Definition['kind'], RegExp][] = [
  ['function', /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s+(\w+)/],
  ['class', /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(\w+)/],
  ['interface', /^\s*(?:export\s+)?interface\s+(\w+)/],
  ['type', /^\s*(?:export\s+)?type\s+(\w+)\s*=/],
  ['const', /^\s*(?:export\s+)?const\s+(\w+)\s*=\s*(?:async\s*)?\(/],
  [
    'method',
    /^\s{2,}(?:public\s+|private\s+|protected\s+|static\s+|async\s+)*(\w+)\s*\([^)]*\)\s*(?::\s*[^{]+)?\{\s*$/,
  ],
];
const CODE_FILE = /\.(ts|tsx|js|jsx|mjs|cjs)$/;

/** End line of a block opened on `start` (1-based), by counting braces; the start line itself when none opens. */
export function blockEnd(lines: string[], start: number): number {
  let depth = 0;
  let opened = false;
  for (let i = start - 1; i < lines.length; i++) {
    for (const ch of lines[i] ?? '') {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) return i + 1;
  }
  return start;
}

export function definitionsOf(content: string): Definition[] {
  const lines = splitLines(content);
  const defs: Definition[] = [];
  lines.forEach((line, i) => {
    if (/^\s*(if|for|while|switch|return|catch)\b/.test(line)) return;
    for (const [kind, re] of PATTERNS) {
      const m = re.exec(line);
      if (m?.[1]) {
        defs.push({ kind, name: m[1], start: i + 1, end: blockEnd(lines, i + 1), header: line.trim() });
        break;
      }
    }
  });
  return defs;
}

/** list_code_definition_names output for a file, or for the top-level code files of a directory. */
export function listDefinitions(state: CoderState, path: string): string {
  const single = state.files.get(path);
  const files =
    single !== undefined
      ? [path]
      : isDirectory(state, path)
        ? filesUnder(state, path).filter(
            (f) => CODE_FILE.test(f) && f.split('/').length === path.split('/').filter(Boolean).length + 1,
          )
        : undefined;
  if (!files) throw new ToolFailure(`Path not found: ${path}. Use list_files to see the workspace.`);
  const sections = files
    .map((f) => {
      const defs = definitionsOf(state.files.get(f) ?? '');
      if (defs.length === 0) return '';
      return `# ${f}\n${defs.map((d) => `${d.start}--${d.end} | ${d.header}`).join('\n')}`;
    })
    .filter(Boolean);
  return sections.length > 0 ? sections.join('\n\n') : 'No source code definitions found.';
}

/** search_files: a regex search (JavaScript syntax, like ripgrep's Rust syntax for common cases) with 1 line of context. */
export function searchFiles(state: CoderState, dir: string, regex: string, filePattern: string | undefined): string {
  let re: RegExp;
  try {
    re = new RegExp(regex);
  } catch (e) {
    throw new ToolFailure(`Invalid regex '${regex}': ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isDirectory(state, dir) && !state.files.has(dir)) {
    throw new ToolFailure(`Directory not found: ${dir}. Use list_files to see the workspace.`);
  }
  const matchGlob = filePattern ? picomatch(filePattern, { basename: true, dot: true }) : () => true;
  const files = state.files.has(dir) ? [dir] : filesUnder(state, dir);
  let count = 0;
  const sections: string[] = [];
  for (const f of files.filter((x) => matchGlob(x))) {
    const lines = splitLines(state.files.get(f) ?? '');
    const hits = lines.flatMap((l, i) => (re.test(l) ? [i] : []));
    if (hits.length === 0) continue;
    count += hits.length;
    const chunks = hits.map((i) =>
      [i - 1, i, i + 1]
        .filter((j) => j >= 0 && j < lines.length)
        .map((j) => `${String(j + 1).padStart(3)} | ${lines[j]}`)
        .join('\n'),
    );
    sections.push(`# ${f}\n${chunks.join('\n----\n')}\n----`);
  }
  return `Found ${count} result${count === 1 ? '' : 's'}.${sections.length > 0 ? `\n\n${sections.join('\n\n')}` : ''}`;
}

const words = (s: string): string[] =>
  s
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2);

/** codebase_search: ranks definition blocks by overlap with the query words (a stand-in for semantic search). */
export function codebaseSearch(state: CoderState, query: string, dir: string): string {
  const q = new Set(words(query));
  const results: { file: string; def: Definition; score: number; code: string }[] = [];
  for (const f of filesUnder(state, dir).filter((x) => CODE_FILE.test(x))) {
    const lines = splitLines(state.files.get(f) ?? '');
    for (const def of definitionsOf(state.files.get(f) ?? '')) {
      const code = lines.slice(def.start - 1, def.end).join('\n');
      const w = new Set(words(`${f} ${code}`));
      const hits = [...q].filter((x) => w.has(x)).length;
      if (hits > 0) results.push({ file: f, def, score: Math.round((100 * hits) / Math.max(1, q.size)) / 100, code });
    }
  }
  results.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.def.start - b.def.start);
  if (results.length === 0) return `Query: ${query}\nNo relevant code found.`;
  const top = results
    .slice(0, 5)
    .map((r) => `File path: ${r.file}\nScore: ${r.score}\nLines: ${r.def.start}-${r.def.end}\nCode Chunk: ${r.code}`);
  return `Query: ${query}\nResults:\n\n${top.join('\n\n')}`;
}
