import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from './cli-helpers.js';
import { processesWith } from './fixtures/mcp-support/processes.js';

const run = promisify(execFile);
// The real MCP Inspector CLI (npm @modelcontextprotocol/inspector), started the way `npx mcp-inspector` does.
const INSPECTOR = join(ROOT, 'node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');
const marker = `tg-inspector-${randomUUID()}`;

interface ToolsList {
  tools: { name: string; inputSchema: { type: string } }[];
}
interface CallResult {
  content: { type: string; text: string }[];
  isError?: boolean;
}

/** `mcp-inspector --cli <our serve command> --method …`: the Inspector spawns `toolgauge serve mcp <name>` itself. */
async function inspect<T>(server: string, ...method: string[]): Promise<T> {
  const serve = ['node', BIN, 'serve', 'mcp', server];
  const { stdout } = await run(
    process.execPath,
    [INSPECTOR, '--cli', '-e', `TOOLGAUGE_TEST_MARKER=${marker}`, ...serve, '--method', ...method],
    { cwd: ROOT, timeout: 30_000 },
  );
  return JSON.parse(stdout) as T;
}

describe('MCP Inspector CLI against `toolgauge serve mcp` (stdio, real processes)', () => {
  it('excel: tools/list shows exactly 25 tools and tools/call returns the fixture workbook', async () => {
    const list = await inspect<ToolsList>('excel', 'tools/list');
    expect(list.tools).toHaveLength(25);
    expect(new Set(list.tools.map((t) => t.name)).size).toBe(25);
    expect(list.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['read_data_from_excel', 'write_data_to_excel', 'get_workbook_metadata']),
    );
    for (const t of list.tools) expect(t.inputSchema.type).toBe('object');

    const call = await inspect<CallResult>(
      'excel',
      'tools/call',
      '--tool-name',
      'read_data_from_excel',
      '--tool-arg',
      'filepath=test.xlsx',
      'sheet_name=Sheet1',
    );
    expect(call.isError).toBeUndefined();
    expect(call.content).toHaveLength(1);
    expect(call.content[0]!.text).toContain('Sheet1: A1=名称, B1=数量, C1=单价');
    expect(call.content[0]!.text).toContain('Sheet1: A2=苹果, B2=120, C2=5.5');
  });

  it('economist: tools/list shows exactly 39 tools and tools/call returns the fixture parameters', async () => {
    const list = await inspect<ToolsList>('economist', 'tools/list');
    expect(list.tools).toHaveLength(39);
    expect(new Set(list.tools.map((t) => t.name)).size).toBe(39);

    const param = await inspect<CallResult>(
      'economist',
      'tools/call',
      '--tool-name',
      'get_parameter',
      '--tool-arg',
      'parameter_name=income_tax_rate',
    );
    expect(param.isError).toBeUndefined();
    expect(JSON.parse(param.content[0]!.text)).toMatchObject({
      name: 'income_tax_rate',
      value: 0.45,
      category: 'tax_policy',
    });

    // The Inspector converts `limit=2` to the schema's integer type: the server honours it.
    const history = await inspect<CallResult>(
      'economist',
      'tools/call',
      '--tool-name',
      'list_history_experiments',
      '--tool-arg',
      'limit=2',
    );
    const body = JSON.parse(history.content[0]!.text) as { experiments: { experiment_name: string }[] };
    expect(body.experiments.map((e) => e.experiment_name)).toEqual(['baseline_2025', 'high_tax_2025']);
  });

  it('an unknown tool is a tool error (isError), not a crash, and no server process is left behind', async () => {
    const call = await inspect<CallResult>('excel', 'tools/call', '--tool-name', 'no_such_tool');
    expect(call.isError).toBe(true);
    expect(call.content[0]!.text).toContain('Unknown tool: no_such_tool');
    expect(processesWith(marker)).toEqual([]);
  });
});
