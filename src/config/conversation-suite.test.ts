import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolDef } from '../contracts/tool.js';
import { checkExpectations } from './check-expectations.js';
import { sharedStateServers } from './check-state-facts.js';
import { loadSuite, wholeSuite } from './load-suite.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-conv-suite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function load(name: string, text: string) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, text);
  return () => loadSuite(file);
}

const SERVERS = 'servers:\n  economist: { builtin: economist }\n';
const set = (name: string, value: number) =>
  `{ tool: set_parameter, args: { parameter_name: [${name}], value: [${value}] } }`;

describe('the suite format: turns and expect.state', () => {
  it('reads a conversation: its first message is the prompt renderers send, the case expect holds the state', () => {
    const loaded = load(
      'ok',
      `name: ok\n${SERVERS}cases:
  - id: conv
    maxTotalTurns: 9
    turns:
      - prompt: First.
        expect: { calls: [${set('vat_rate', 0.2)}] }
      - prompt: Second.
        maxTurns: 2
    expect:
      state:
        - { path: [parameters, vat_rate], equals: 0.2, tolerance: 0.001 }
        - { probe: { tool: get_parameter, args: { parameter_name: vat_rate } }, path: [value], subset: 0.2 }
`,
    )();
    const [c] = wholeSuite(loaded).cases;
    expect(c?.prompt).toBe('First.');
    expect(c?.turns?.map((t) => t.prompt)).toEqual(['First.', 'Second.']);
    expect(c?.expect.state).toHaveLength(2);
  });

  it('refuses what is ambiguous or judges nothing, each at its line and column, with the fix', () => {
    const bad = load(
      'bad',
      `name: bad\n${SERVERS}cases:
  - id: both
    prompt: One.
    turns: [{ prompt: Two. }]
    expect: { state: [{ path: [parameters], subset: {} }] }
  - id: calls-at-case-level
    turns: [{ prompt: One. }]
    expect: { calls: [${set('vat_rate', 0.2)}] }
  - id: nothing-judged
    turns: [{ prompt: One. }, { prompt: Two. }]
  - id: two-matchers
    prompt: One.
    expect: { state: [{ path: [a], equals: 1, subset: {} }] }
  - id: state-in-turn
    turns: [{ prompt: One., expect: { no_call: true, state: [{ path: [a], equals: 1 }] } }]
`,
    );
    expect(bad).toThrow(
      /bad\.yaml:\d+:\d+: cases\[0\]\.prompt: a case with `turns` writes its first message as the first turn/,
    );
    expect(bad).toThrow(/cases\[1\]\.expect\.calls: in a case with `turns`, calls goes in the expect of the turn/);
    expect(bad).toThrow(/cases\[2\]\.turns: a conversation needs something to judge/);
    expect(bad).toThrow(
      /cases\[3\]\.expect\.state\[0\]: a state fact needs exactly one of equals, subset or absent \(found equals, subset\)/,
    );
    expect(bad).toThrow(/cases\[4\]\.turns\[0\]\.expect\.state: unknown key 'state'/);
  });

  it("checks each turn's calls and alternatives, and the facts' servers and probe tools, against the servers' tools", () => {
    const loaded = load(
      'check',
      `name: check\n${SERVERS}cases:
  - id: conv
    turns:
      - prompt: One.
        expect:
          calls: [{ tool: set_paramter, args: { parameter_name: [vat_rate] } }]
          alternatives: [[{ tool: batch_set_parameters, args: { params: [{}] } }]]
    expect:
      state:
        - { server: econ, path: [parameters], subset: {} }
        - { probe: { tool: get_param }, equals: 1 }
`,
    )();
    const tool = (name: string, properties: Record<string, unknown>): ToolDef => ({
      name,
      server: 'economist',
      inputSchema: { type: 'object', properties, additionalProperties: false },
    });
    const serverTools = [
      tool('set_parameter', { parameter_name: {}, value: {} }),
      tool('batch_set_parameters', { parameters: {} }),
      tool('get_parameter', { parameter_name: {} }),
    ];
    const issues = checkExpectations(loaded.suite, loaded.cases, { serverTools }).map(
      (i) => `${i.path.join('.')}: ${i.message}`,
    );
    expect(issues).toEqual([
      expect.stringMatching(
        /^cases\.0\.turns\.0\.expect\.calls\.0\.tool: no tool named 'set_paramter' .*did you mean 'set_parameter'/,
      ),
      expect.stringMatching(
        /^cases\.0\.turns\.0\.expect\.alternatives\.0\.0\.args\.params: 'params' is not a parameter of batch_set_parameters/,
      ),
      expect.stringMatching(
        /^cases\.0\.expect\.state\.0\.server: no server named 'econ' in this suite.*its servers: economist/,
      ),
      expect.stringMatching(/^cases\.0\.expect\.state\.1\.probe\.tool: server 'economist' has no tool 'get_param'/),
    ]);
  });
});

describe('state on a server every case shares', () => {
  it('names the stdio servers without isolate whose state a suite judges (bundled and isolated ones are fresh)', () => {
    const suite = (isolate: string) =>
      load(
        `shared${isolate ? '-isolated' : ''}`,
        `name: shared
servers:
  files: { command: [node, x.js]${isolate} }
  economist: { builtin: economist }
cases:
  - id: a
    prompt: One.
    expect:
      state:
        - { probe: { tool: read, server: files }, subset: x }
        - { server: economist, path: [parameters], subset: {} }
`,
      )();
    const shared = suite('');
    expect(sharedStateServers(shared.suite, shared.cases)).toEqual(['files']);
    const isolated = suite(', isolate: true');
    expect(sharedStateServers(isolated.suite, isolated.cases)).toEqual([]);
  });
});
