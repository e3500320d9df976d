import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { loadSuite as loadSuiteFile, wholeSuite } from '../../src/config/load-suite.js';
import type { Suite } from '../../src/config/suite-schema.js';

/**
 * Test support shared by the economist and coder tests (not used at runtime): a real SDK Client connected to a
 * mock server over the SDK's in-memory transport, and a reader that replays a suite's expected calls.
 */
export interface CallOutcome {
  text: string;
  isError: boolean;
}

export interface Connected {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallOutcome>;
  /** Calls and returns the parsed JSON text; fails the test when the call is a tool error. */
  json<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

export async function connectInMemory(server: Server): Promise<Connected> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'toolgauge-test', version: '0.0.0' });
  await client.connect(clientTransport);
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> => {
    const result = await client.callTool({ name, arguments: args });
    const content = (result.content ?? []) as { type: string; text?: string }[];
    return { text: content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true };
  };
  return {
    client,
    call,
    json: async <T>(name: string, args?: Record<string, unknown>) => {
      const r = await call(name, args);
      if (r.isError) throw new Error(`${name} failed: ${r.text}`);
      return JSON.parse(r.text) as T;
    },
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A bundled suite through the product's own loader (schema plus semantic checks: unique ids, known servers). */
export function loadSuite(path: string): Suite {
  return wholeSuite(loadSuiteFile(path));
}

/** The arguments an oracle would send: the first allowed value of each parameter, omitting "" (= may be omitted). */
export function firstAllowedArgs(args: Record<string, unknown[]> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, allowed] of Object.entries(args ?? {})) {
    const first = allowed[0];
    if (first !== '' && allowed.length > 0) out[name] = first;
  }
  return out;
}

export interface CaseReplay {
  id: string;
  /** Tool errors among the expected calls (should be empty). */
  errors: string[];
  /** answer_mentions facts that do not appear in the concatenated results (should be empty). */
  missingFacts: string[];
}

/**
 * Replays every case of a suite as an oracle would: each expected call in order, against a fresh server, with the
 * first allowed value of each parameter. Calls whose args are free text (no `args` in the suite, e.g. a follow-up
 * question) take their arguments from `freeTextArgs` by tool name.
 */
export async function replaySuite(
  suite: Suite,
  create: () => Server,
  freeTextArgs: Record<string, Record<string, unknown>> = {},
): Promise<CaseReplay[]> {
  const out: CaseReplay[] = [];
  for (const c of suite.cases) {
    const conn = await connectInMemory(create());
    const errors: string[] = [];
    let results = '';
    for (const call of c.expect.calls ?? []) {
      const args = {
        ...(call.example ?? freeTextArgs[call.tool] ?? {}),
        ...(call.args ? firstAllowedArgs(call.args) : {}),
      };
      const r = await conn.call(call.tool, args);
      if (r.isError) errors.push(`${call.tool}: ${r.text}`);
      results += `${r.text}\n`;
    }
    await conn.close();
    const missingFacts = (c.expect.answer_mentions ?? []).filter((f) => !results.includes(f));
    out.push({ id: c.id, errors, missingFacts });
  }
  return out;
}
