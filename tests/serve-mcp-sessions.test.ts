import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServedMcp, serveMcpHttp } from './helpers/serve-mcp-http.js';

/** `serve mcp <name> --http 0`, ready once its banner names the URL and says each session starts fresh. */
const serveOverHttp = (name: string) =>
  serveMcpHttp(name, / on (http:\/\/\S+\/mcp)\nevery MCP session starts from a fresh server state/);

/** One MCP session: a new SDK client over Streamable HTTP. */
async function session(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const text = (r: CallToolResult): string =>
  r.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');

/** For each bundled server with state: a change in one session, and what a second session must see instead. */
const servers: {
  name: string;
  change(a: Client): Promise<unknown>;
  freshIn(b: Client, changed: unknown): Promise<void>;
}[] = [
  {
    name: 'economist',
    // The parameters, the run counter and the deterministic clock all live in the server's state.
    change: async (a) => {
      await call(a, 'set_parameter', { parameter_name: 'income_tax_rate', value: 0.5 });
      return text(await call(a, 'start_simulation'));
    },
    freshIn: async (b, started) => {
      expect(text(await call(b, 'get_parameter', { parameter_name: 'income_tax_rate' }))).toContain('"value": 0.45');
      await call(b, 'set_parameter', { parameter_name: 'income_tax_rate', value: 0.5 });
      // Same calls from the same start: the same run id and start time, not run_002 a few ticks later.
      expect(text(await call(b, 'start_simulation'))).toBe(started);
    },
  },
  {
    name: 'excel',
    change: (a) => call(a, 'delete_worksheet', { filepath: 'test.xlsx', sheet_name: 'Sheet2' }),
    freshIn: async (b) => {
      const read = await call(b, 'read_data_from_excel', { filepath: 'test.xlsx', sheet_name: 'Sheet2' });
      expect(read.isError, text(read)).toBeFalsy();
    },
  },
  {
    name: 'coder',
    change: (a) =>
      call(a, 'write_to_file', { path: 'src/leak.ts', content: 'export const leak = 1;\n', line_count: 1 }),
    freshIn: async (b) => {
      const read = await call(b, 'read_file', { path: 'src/leak.ts' });
      expect(read.isError, text(read)).toBe(true);
    },
  },
];

describe('toolgauge serve mcp <name> --http: one fresh server state per MCP session', () => {
  let served: ServedMcp | undefined;
  afterEach(async () => {
    await served?.stop();
    served = undefined;
  });

  for (const server of servers) {
    it(`${server.name}: what one session changed, the next session does not see`, async () => {
      served = await serveOverHttp(server.name);
      const a = await session(served.url, 'a');
      const changed = await server.change(a);
      const b = await session(served.url, 'b');
      await server.freshIn(b, changed);
      // A session that starts after the first one ended is fresh too.
      await a.close();
      const c = await session(served.url, 'c');
      await server.freshIn(c, changed);
      await b.close();
      await c.close();
    }, 60_000);
  }
});
