import { type MockTool, ToolFailure } from '../tool-kit.js';
import { codebaseSearch, listDefinitions, searchFiles } from './code-index.js';
import { applyDiff } from './diff.js';
import { DEFAULT_LINE_LIMIT, renderRead } from './read-file.js';
import { type CoderState, lineCount, listDirectory, normalizePath, readFileOrFail } from './workspace.js';

type Tool = MockTool<CoderState>;

const path = (what: string) => ({
  type: 'string',
  description: `${what} (relative to the workspace directory /workspace)`,
});
const strict = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** File tools of the coding agent in case study 004 (read, edit, list, search). */
export const fileTools: Tool[] = [
  {
    name: 'read_file',
    description:
      'Read a file and return its contents with line numbers (e.g. "12 | const x = 1") for reference in diffs. ' +
      "Supports two modes: 'slice' (default) returns lines from offset for up to limit lines; 'indentation' returns " +
      `the code block around anchor_line. By default, returns up to ${DEFAULT_LINE_LIMIT} lines per file.`,
    inputSchema: strict(
      {
        path: path('Path of the file to read'),
        mode: { type: 'string', enum: ['slice', 'indentation'], default: 'slice', description: 'Reading mode' },
        offset: { type: 'integer', minimum: 1, description: 'First line to return (1-based, slice mode)' },
        limit: { type: 'integer', minimum: 1, description: `Maximum number of lines (default ${DEFAULT_LINE_LIMIT})` },
        anchor_line: {
          type: 'integer',
          minimum: 1,
          description: 'Line whose enclosing block to return (indentation mode)',
        },
      },
      ['path'],
    ),
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const p = normalizePath(String(args.path));
      return renderRead(p, readFileOrFail(state, p), {
        mode: args.mode as string | undefined,
        offset: args.offset as number | undefined,
        limit: args.limit as number | undefined,
        anchorLine: args.anchor_line as number | undefined,
      });
    },
  },
  {
    name: 'write_to_file',
    description:
      'Write full content to a file. If the file exists it is overwritten; if not, it is created (with any needed ' +
      'directories). Always provide the COMPLETE file content, without line numbers. Prefer apply_diff for edits of existing files.',
    inputSchema: strict(
      {
        path: path('Path of the file to write'),
        content: { type: 'string', description: 'The complete content of the file' },
        line_count: {
          type: 'integer',
          minimum: 0,
          description: 'Number of lines in content (to detect truncated output)',
        },
      },
      ['path', 'content', 'line_count'],
    ),
    annotations: { destructiveHint: true },
    handler: (args, state) => {
      const p = normalizePath(String(args.path));
      if (p === '') throw new ToolFailure('write_to_file needs a file path, not the workspace directory.');
      const content = String(args.content);
      const existed = state.files.has(p);
      state.files.set(p, content);
      const actual = lineCount(content);
      const note =
        args.line_count !== actual
          ? `\nNote: line_count was ${String(args.line_count)} but the content has ${actual} lines.`
          : '';
      return `The content was successfully ${existed ? 'saved to' : 'written to the new file'} ${p} (${actual} lines).${note}`;
    },
  },
  {
    name: 'apply_diff',
    description:
      'Apply precise, targeted modifications to an existing file using one or more SEARCH/REPLACE blocks. The SEARCH ' +
      'section must exactly match existing content, including whitespace and indentation. Format:\n' +
      '<<<<<<< SEARCH\n:start_line:[line]\n-------\n[exact content to find]\n=======\n[new content]\n>>>>>>> REPLACE',
    inputSchema: strict(
      {
        path: path('Path of the file to modify'),
        diff: { type: 'string', description: 'One or more SEARCH/REPLACE blocks' },
      },
      ['path', 'diff'],
    ),
    annotations: { destructiveHint: true },
    handler: (args, state) => {
      const p = normalizePath(String(args.path));
      const result = applyDiff(p, readFileOrFail(state, p), String(args.diff));
      state.files.set(p, result.content);
      return `Changes successfully applied to ${p}: ${result.applied} block${result.applied === 1 ? '' : 's'} applied.`;
    },
  },
  {
    name: 'search_and_replace',
    description:
      'Replace every occurrence of a string (or a regex when use_regex is true) in a file. Also known by the alias "edit".',
    inputSchema: strict(
      {
        path: path('Path of the file to modify'),
        search: { type: 'string', description: 'Text or regex to search for' },
        replace: { type: 'string', description: 'Replacement text' },
        use_regex: { type: 'boolean', default: false, description: 'Treat search as a regular expression' },
        ignore_case: { type: 'boolean', default: false, description: 'Case-insensitive matching' },
      },
      ['path', 'search', 'replace'],
    ),
    annotations: { destructiveHint: true },
    handler: (args, state) => {
      const p = normalizePath(String(args.path));
      const content = readFileOrFail(state, p);
      const source =
        args.use_regex === true ? String(args.search) : String(args.search).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      let re: RegExp;
      try {
        re = new RegExp(source, args.ignore_case === true ? 'gi' : 'g');
      } catch (e) {
        throw new ToolFailure(`Invalid regex '${String(args.search)}': ${e instanceof Error ? e.message : String(e)}`);
      }
      const count = content.match(re)?.length ?? 0;
      if (count === 0) throw new ToolFailure(`No match for '${String(args.search)}' in ${p}; nothing was changed.`);
      state.files.set(p, content.replace(re, String(args.replace)));
      return `Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${p}.`;
    },
  },
  {
    name: 'list_files',
    description:
      'List files and directories within the specified directory. If recursive is true, lists all files and ' +
      'directories recursively; otherwise only the top-level contents. Directories end with "/".',
    inputSchema: strict(
      {
        path: path('Directory to list ("." for the workspace root)'),
        recursive: { type: 'boolean', description: 'Whether to list files recursively' },
      },
      ['path'],
    ),
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const entries = listDirectory(state, normalizePath(String(args.path)), args.recursive === true);
      return entries.length > 0 ? entries.join('\n') : 'No files found.';
    },
  },
  {
    name: 'search_files',
    description:
      'Perform a regex search across files in a directory (recursively), showing each match with one line of ' +
      'context. Use file_pattern (a glob such as "*.ts") to limit the files searched.',
    inputSchema: strict(
      {
        path: path('Directory to search recursively'),
        regex: { type: 'string', description: 'Regular expression pattern to search for' },
        file_pattern: { type: ['string', 'null'], description: 'Glob pattern to filter files, e.g. "*.ts" (optional)' },
      },
      ['path', 'regex'],
    ),
    annotations: { readOnlyHint: true },
    handler: (args, state) =>
      searchFiles(
        state,
        normalizePath(String(args.path)),
        String(args.regex),
        typeof args.file_pattern === 'string' ? args.file_pattern : undefined,
      ),
  },
  {
    name: 'list_code_definition_names',
    description:
      'List definition names (classes, functions, methods, interfaces, types) in a source file or in all top-level ' +
      'source files of a directory, with their line ranges.',
    inputSchema: strict({ path: path('File or directory to analyse') }, ['path']),
    annotations: { readOnlyHint: true },
    handler: (args, state) => listDefinitions(state, normalizePath(String(args.path))),
  },
  {
    name: 'codebase_search',
    description:
      'Find code most relevant to a natural-language query (semantic search over the indexed workspace). Use it ' +
      'before regex search when you do not know the exact identifiers.',
    inputSchema: strict(
      {
        query: { type: 'string', description: 'What you are looking for, in natural language' },
        path: { type: ['string', 'null'], description: 'Limit the search to this directory (optional)' },
      },
      ['query'],
    ),
    annotations: { readOnlyHint: true },
    handler: (args, state) =>
      codebaseSearch(state, String(args.query), typeof args.path === 'string' ? normalizePath(args.path) : ''),
  },
];
