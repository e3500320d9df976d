import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMockServer, type MockTool, ToolFailure } from './tool-kit.js';

interface Counter {
  n: number;
}

const tools: MockTool<Counter>[] = Array.from({ length: 5 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool number ${i}`,
  inputSchema: { type: 'object', properties: {}, required: [] },
  handler: () => `tool ${i}`,
}));

const bump: MockTool<Counter> = {
  name: 'bump',
  description: 'Adds `by` to a counter and returns it',
  annotations: { idempotentHint: false },
  inputSchema: {
    type: 'object',
    properties: {
      by: { type: 'integer', minimum: 1, description: 'Amount' },
      mode: { type: 'string', enum: ['add', 'set'], description: 'How to apply it' },
    },
    required: ['by'],
  },
  handler(args, state) {
    if (args.by === 13) throw new ToolFailure('13 is unlucky; pick another number');
    if (args.by === 99) throw new Error('database exploded');
    state.n = args.mode === 'set' ? (args.by as number) : state.n + (args.by as number);
    return { counter: state.n };
  },
};

async function connect(options: { pageSize?: number } = {}): Promise<Client> {
  const [c, s] = InMemoryTransport.createLinkedPair();
  await createMockServer<Counter>({
    name: 'kit',
    version: '1.0.0',
    tools: [...tools, bump],
    createState: () => ({ n: 0 }),
    ...options,
  }).connect(s);
  const client = new Client({ name: 'kit-test', version: '1' });
  await client.connect(c);
  return client;
}

const call = async (client: Client, args: Record<string, unknown>, name = 'bump') =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');

describe('createMockServer', () => {
  it('pages tools/list with pageSize and a numeric cursor', async () => {
    const client = await connect({ pageSize: 2 });
    const names: string[] = [];
    const cursors: (string | undefined)[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      expect(page.tools.length).toBeLessThanOrEqual(2);
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      cursors.push(cursor);
    } while (cursor);
    expect(names).toEqual(['tool_0', 'tool_1', 'tool_2', 'tool_3', 'tool_4', 'bump']);
    expect(cursors).toEqual(['2', '4', undefined]);
    await client.close();
  });

  it('lists everything in one page by default, with annotations', async () => {
    const client = await connect();
    const page = await client.listTools();
    expect(page.tools).toHaveLength(6);
    expect(page.nextCursor).toBeUndefined();
    expect(page.tools.at(-1)?.annotations).toEqual({ idempotentHint: false });
    await client.close();
  });

  it('keeps state per server and returns JSON values as pretty text', async () => {
    const client = await connect();
    await call(client, { by: 2 });
    const r = await call(client, { by: 3 });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toBe('{\n  "counter": 5\n}');
    const other = await connect();
    expect(text(await call(other, { by: 1 }))).toContain('"counter": 1');
    await client.close();
    await other.close();
  });

  it('validates arguments with ajv before the handler, naming enum values', async () => {
    const client = await connect();
    const missing = await call(client, {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe("Invalid arguments for bump: (arguments) must have required property 'by'");
    expect(text(await call(client, { by: 'two' }))).toBe('Invalid arguments for bump: /by must be integer');
    expect(text(await call(client, { by: 1, mode: 'mul' }))).toBe(
      'Invalid arguments for bump: /mode must be equal to one of the allowed values: "add", "set"',
    );
    expect(text(await call(client, { by: 1 }))).toContain('"counter": 1');
    await client.close();
  });

  it('turns ToolFailure, other throws and unknown tools into isError results', async () => {
    const client = await connect();
    const unlucky = await call(client, { by: 13 });
    expect(unlucky).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: '13 is unlucky; pick another number' }],
    });
    expect(text(await call(client, { by: 99 }))).toBe('Internal error in bump: database exploded');
    const unknown = await call(client, {}, 'nope');
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('Unknown tool: nope');
    await client.close();
  });
});
