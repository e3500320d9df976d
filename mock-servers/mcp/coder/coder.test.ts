import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory } from '../../../tests/helpers/mock-server-client.js';
import { coderServer } from './index.js';

let open: Connected[] = [];
async function connect(): Promise<Connected> {
  const c = await connectInMemory(coderServer.create());
  open.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

async function text(c: Connected, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await c.call(name, args);
  if (r.isError) throw new Error(`${name} failed: ${r.text}`);
  return r.text;
}

const FIX_AVERAGE =
  '<<<<<<< SEARCH\n:start_line:12\n-------\n  return sum(values) / (values.length - 1);\n=======\n' +
  '  return sum(values) / values.length;\n>>>>>>> REPLACE';

describe('coder catalog', () => {
  it('publishes the coding-agent tools of case study 004 with strict schemas ajv compiles', async () => {
    const c = await connect();
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'execute_command',
        'read_file',
        'write_to_file',
        'apply_diff',
        'search_and_replace',
        'search_files',
        'list_files',
        'list_code_definition_names',
        'codebase_search',
        'ask_followup_question',
        'attempt_completion',
        'update_todo_list',
        'access_mcp_resource',
        'generate_image',
      ].sort(),
    );
    expect(coderServer.toolCount).toBe(tools.length);
    const ajv = new Ajv({ strict: true, strictTypes: false });
    for (const t of tools) {
      expect(() => ajv.compile(t.inputSchema), t.name).not.toThrow();
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    }
  });
});

describe('coder workspace', () => {
  it('read_file returns numbered lines; slice and indentation modes pick the right lines', async () => {
    const c = await connect();
    const full = await text(c, 'read_file', { path: 'src/utils/math.ts' });
    expect(full).toContain('Lines 1-17 of 17:');
    expect(full).toContain('12 |   return sum(values) / (values.length - 1);');
    const slice = await text(c, 'read_file', { path: './src/utils/math.ts', offset: 10, limit: 2 });
    expect(slice.split('\n').slice(1)).toEqual([
      'Lines 10-11 of 17:',
      '10 | export function average(values: number[]): number {',
      '11 |   if (values.length === 0) return 0;',
      '(6 more lines; use offset 12 to continue)',
    ]);
    const block = await text(c, 'read_file', {
      path: 'src/services/user-service.ts',
      mode: 'indentation',
      anchor_line: 15,
    });
    expect(block).toContain('Lines 14-16 of 21:');
    const missing = await c.call('read_file', { path: 'src/nope.ts' });
    expect(missing).toEqual({ isError: true, text: 'File not found: src/nope.ts. Use list_files to see the files.' });
    expect((await c.call('read_file', { path: '/etc/passwd' })).text).toContain('outside the workspace');
  });

  it('write_to_file then read_file sees the new file; list_files and git status show it', async () => {
    const c = await connect();
    await text(c, 'write_to_file', {
      path: 'src/utils/greet.ts',
      content: 'export const hi = () => "hi";\n',
      line_count: 1,
    });
    expect(await text(c, 'read_file', { path: 'src/utils/greet.ts' })).toContain('1 | export const hi = () => "hi";');
    expect((await text(c, 'list_files', { path: 'src/utils' })).split('\n')).toEqual([
      'src/utils/format.ts',
      'src/utils/greet.ts',
      'src/utils/math.ts',
    ]);
    expect(await text(c, 'list_files', { path: '.' })).not.toContain('src/utils/');
    expect(await text(c, 'list_files', { path: '.', recursive: true })).toContain('src/utils/math.ts');
    expect(await text(c, 'execute_command', { command: 'git status' })).toContain('Untracked files:');
  });

  it('apply_diff fixes the average bug so the simulated npm test goes from failing to passing', async () => {
    const c = await connect();
    const before = await text(c, 'execute_command', { command: 'npm test' });
    expect(before).toContain('Exit code: 1');
    expect(before).toContain('expected 150 to be 100');
    expect(await text(c, 'apply_diff', { path: 'src/utils/math.ts', diff: FIX_AVERAGE })).toContain('1 block applied');
    expect(await text(c, 'read_file', { path: 'src/utils/math.ts' })).toContain(
      '12 |   return sum(values) / values.length;',
    );
    const after = await text(c, 'execute_command', { command: 'npm test', cwd: null });
    expect(after).toContain('Exit code: 0');
    expect(after).toContain('Tests  4 passed (4)');
    expect(await text(c, 'execute_command', { command: 'git diff' })).toContain(
      '+  return sum(values) / values.length;',
    );
  });

  it('apply_diff with a SEARCH that does not match is a tool error and leaves the file unchanged', async () => {
    const c = await connect();
    const r = await c.call('apply_diff', {
      path: 'src/utils/math.ts',
      diff: '<<<<<<< SEARCH\n  return sum(values) / values.length - 1;\n=======\n  return 0;\n>>>>>>> REPLACE',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('no match found for SEARCH block 1');
    expect((await c.call('apply_diff', { path: 'src/utils/math.ts', diff: 'just replace it' })).text).toContain(
      'no SEARCH/REPLACE block found',
    );
    expect(await text(c, 'read_file', { path: 'src/utils/math.ts' })).toContain('(values.length - 1)');
  });

  it('search_files does a regex search with file_pattern; list_code_definition_names finds classes and methods', async () => {
    const c = await connect();
    const found = await text(c, 'search_files', { path: '.', regex: 'function \\w+\\(values', file_pattern: '*.ts' });
    expect(found.split('\n')[0]).toBe('Found 2 results.');
    expect(found).toContain('# src/utils/math.ts');
    expect(found).toContain(' 10 | export function average(values: number[]): number {');
    expect(await text(c, 'search_files', { path: 'src', regex: 'TODO', file_pattern: '*.md' })).toBe(
      'Found 0 results.',
    );
    expect((await c.call('search_files', { path: '.', regex: '(' })).isError).toBe(true);
    const defs = await text(c, 'list_code_definition_names', { path: 'src/services/user-service.ts' });
    expect(defs).toContain('7--21 | export class UserService {');
    expect(defs).toContain('14--16 | findByEmail(email: string): User | undefined {');
    const search = await text(c, 'codebase_search', { query: 'find user by email' });
    expect(search).toContain('File path: src/services/user-service.ts');
  });

  it('execute_command is simulated: known commands answer from the workspace, unknown ones are "command not found"', async () => {
    const c = await connect();
    expect(await text(c, 'execute_command', { command: 'cat package.json' })).toContain('"name": "invoice-calc"');
    expect(await text(c, 'execute_command', { command: 'ls', cwd: 'src' })).toContain('utils/');
    const unknown = await text(c, 'execute_command', { command: 'rm -rf /' });
    expect(unknown).toContain('Exit code: 127');
    expect(unknown).toContain('bash: rm: command not found');
    expect(await text(c, 'execute_command', { command: 'npm start' })).toContain('Average: 150.00 EUR');
  });

  it('interaction tools: follow-up answers with the first suggestion, todos parse, completion is accepted', async () => {
    const c = await connect();
    const answer = await text(c, 'ask_followup_question', {
      question: 'Which currency?',
      follow_up: [{ text: 'EUR' }, { text: 'USD', mode: null }],
    });
    expect(answer).toBe('<answer>\nEUR\n</answer>');
    expect(await text(c, 'update_todo_list', { todos: '[x] Read code\n[-] Fix bug\n[ ] Run tests' })).toBe(
      'Todo list updated: 3 items (1 completed, 1 in progress, 1 pending).',
    );
    expect((await c.call('update_todo_list', { todos: 'fix it' })).isError).toBe(true);
    expect(await text(c, 'attempt_completion', { result: 'Fixed.' })).toContain('Task complete');
    expect(await text(c, 'access_mcp_resource', { server_name: 'project-docs', uri: 'docs://conventions' })).toContain(
      'formatCurrency',
    );
  });

  it('each create() starts from the pristine workspace', async () => {
    const a = await connect();
    await text(a, 'write_to_file', { path: 'README.md', content: 'gone\n', line_count: 1 });
    const b = await connect();
    expect(await text(b, 'read_file', { path: 'README.md' })).toContain('# invoice-calc');
    expect(await text(b, 'execute_command', { command: 'git status' })).toContain('working tree clean');
  });
});
