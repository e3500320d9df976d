import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const FS_TOOLS = [
  'create_directory',
  'directory_tree',
  'edit_file',
  'get_file_info',
  'list_allowed_directories',
  'list_directory',
  'list_directory_with_sizes',
  'move_file',
  'read_file',
  'read_media_file',
  'read_multiple_files',
  'read_text_file',
  'search_files',
  'write_file',
];

/**
 * A third-party MCP server as a catalog: @modelcontextprotocol/server-filesystem, spawned over stdio from a suite
 * whose relative command paths resolve against the suite's folder, run through the real CLI with sim:oracle.
 */
describe('third-party MCP server (@modelcontextprotocol/server-filesystem) through a suite', () => {
  it('lists its tools into the catalog and runs real calls whose results reach the run log', async () => {
    const out = tempDir('tg-fs-');
    const res = await runCli(['eval', '-c', join(FIXTURES, 'mcp-fs', 'fs.config.yaml'), '--out', out]);
    expect(res.code, res.stderr).toBe(0);
    const records = readRecords(join(runDirFrom(res.stderr), 'run.jsonl'));
    const cases = records.filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(6);
    for (const c of cases) expect(c.error, c.key).toBeUndefined();
    const get = (key: string) => cases.find((c) => c.key === key)!;

    // Listing: the server's whole catalog reaches the model, natively and in the prompt.
    const native = get('mcp-fs/read-notes|native-functions|sim:oracle|0').transcript.turns[0]!.request;
    expect(native.tools?.map((t) => t.name).sort()).toEqual(FS_TOOLS);
    expect(native.tools?.every((t) => t.target.server === 'fs' && t.target.tool === t.name)).toBe(true);
    const readTool = native.tools?.find((t) => t.name === 'read_text_file');
    expect(readTool?.parameters).toMatchObject({ type: 'object', required: ['path'] });
    const prompt = get('mcp-fs/read-notes|full-details|sim:oracle|0').transcript.turns[0]!.request.system;
    for (const name of FS_TOOLS) expect(prompt).toContain(name);

    // Calling: real file contents, read by the real server from the folder it was given (tests/fixtures/mcp-fs/data).
    const notes = readFileSync(join(FIXTURES, 'mcp-fs', 'data', 'notes.txt'), 'utf8');
    for (const renderer of ['full-details', 'native-functions']) {
      const read = get(`mcp-fs/read-notes|${renderer}|sim:oracle|0`);
      const [first, second] = read.transcript.turns;
      expect(first!.executed).toHaveLength(1);
      expect(first!.executed[0]).toMatchObject({
        server: 'fs',
        tool: 'read_text_file',
        args: { path: 'notes.txt' },
        isError: false,
      });
      expect(first!.executed[0]!.result.trim()).toBe(notes.trim());
      expect(JSON.stringify(second!.request.messages)).toContain('Revenue grew 12% to 4.2M EUR.');
      expect(read.transcript.stopReason).toBe('answered');
      expect(read.grades.every((g) => g.pass)).toBe(true);
    }
    const list = get('mcp-fs/list-data|full-details|sim:oracle|0').transcript.turns[0]!.executed[0]!;
    expect(list).toMatchObject({ tool: 'list_directory', isError: false });
    expect(list.result.split('\n').sort()).toEqual(['[DIR] reports', '[FILE] notes.txt']);

    // The server's own sandbox: a path outside its folder is a tool error fed back to the model, not a run error.
    const denied = get('mcp-fs/outside-allowed|full-details|sim:oracle|0').transcript.turns[0]!.executed[0]!;
    expect(denied).toMatchObject({ tool: 'read_text_file', isError: true });
    expect(denied.result).toContain('Access denied - path outside allowed directories');

    expect(records.at(-1) as RunFooter).toMatchObject({ type: 'footer', completed: 6, errors: 0 });
  });
});
