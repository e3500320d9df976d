import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BuiltinServer } from '../../src/contracts/mock-server.js';

/** A real SDK client connected in-process to a fresh instance of a bundled server (tests and smoke checks). */
export async function connectInMemory(builtin: BuiltinServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await builtin.create().connect(serverSide);
  const client = new Client({ name: 'toolgauge-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Calls a tool and returns its text and error flag. */
export async function callText(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { text, isError: result.isError === true };
}
