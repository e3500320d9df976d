import { describe, expect, it } from 'vitest';
import type { CaseSession } from '../catalog/server-pool.js';
import type { ModelRequest, ModelResponse, Oracle } from '../contracts/model.js';
import type { Provider } from '../contracts/provider.js';
import type { SuiteCase } from '../contracts/suite.js';
import { CaseAbort } from './agent-loop.js';
import { runConversation } from './conversation.js';

const session: CaseSession = {
  catalog: { tools: [{ name: 'ping', server: 's', inputSchema: { type: 'object' } }], source: 'live', hash: '' },
  call: async () => ({ text: 'pong', isError: false }),
  readState: async () => ({ value: {} }),
  release: async () => {},
};

const reply = (text: string): ModelResponse => ({
  text,
  toolCalls: [],
  finishReason: 'stop',
  latencyMs: 0,
  raw: { request: null, response: null },
});

/** Calls `ping` until the message asks for `n` results, then answers; records what each request held. */
function pinger(
  perMessage: number[],
  simulated = true,
): { provider: Provider; seen: (ModelRequest & { oracle?: Oracle })[] } {
  const seen: (ModelRequest & { oracle?: Oracle })[] = [];
  const provider: Provider = {
    id: 'fake',
    kind: 'sim',
    simulated,
    async generate(request, _signal, oracle) {
      seen.push({ ...request, ...(oracle ? { oracle } : {}) });
      const spoken = request.messages.filter((m) => m.role === 'user' && !m.content.startsWith('<tool_result'));
      const since = request.messages.length - request.messages.lastIndexOf(spoken.at(-1) as never) - 1;
      const results = Math.floor(since / 2);
      const wanted = perMessage[spoken.length - 1] ?? 0;
      return results < wanted
        ? reply('<tool_call>{"name": "ping", "arguments": {}}</tool_call>')
        : reply(`answer ${spoken.length}`);
    },
  };
  return { provider, seen };
}

const first: ModelRequest = {
  system: 'tools: ping',
  messages: [{ role: 'user', content: 'one' }],
  protocol: 'xml-tags',
  meta: { caseId: 's/c', repeat: 0, seed: 0, renderer: 'full-details', turn: 0 },
};

const conversation = (extra: Partial<SuiteCase> = {}): SuiteCase => ({
  id: 'c',
  prompt: 'one',
  turns: [
    { prompt: 'one', expect: { no_call: true } },
    { prompt: 'two', expect: { no_call: true, answer_mentions: ['second'] } },
    { prompt: 'three', expect: { no_call: true } },
  ],
  expect: {},
  ...extra,
});

const run = (provider: Provider, c: SuiteCase, maxTurns = 6) =>
  runConversation(
    {
      first,
      provider,
      session,
      limits: { maxTurns, turnMs: 5000, toolMs: 5000 },
      abort: new CaseAbort(),
      offered: session.catalog.tools,
      oracle: { calls: [], noCall: false, answerMentions: ['first'] },
    },
    c,
  );

describe('runConversation', () => {
  it('sends each message after the answer to the one before, with the whole history and its own expectations', async () => {
    const { provider, seen } = pinger([1, 0, 2]);
    const t = await run(provider, conversation());
    expect(t.stopReason).toBe('answered');
    expect(t.finalText).toBe('answer 3');
    expect(t.turns.map((x) => [x.index, x.userTurn, x.request.meta.turn])).toEqual([
      [0, 0, 0],
      [1, 0, 1],
      [2, 1, 2],
      [3, 2, 3],
      [4, 2, 4],
      [5, 2, 5],
    ]);
    // the second message follows the first answer as an assistant message
    expect(seen[2]?.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'answer 1' },
      { role: 'user', content: 'two' },
    ]);
    // the persona is told the expectations of the message being answered
    expect(seen[0]?.oracle?.answerMentions).toEqual(['first']);
    expect(seen[2]?.oracle?.answerMentions).toEqual(['second']);
  });

  it('gives the expectations to a simulated provider only, beside the request and never in it', async () => {
    const real = pinger([1, 0, 0], false);
    const t = await run(real.provider, conversation());
    expect(t.stopReason).toBe('answered');
    expect(real.seen.length).toBeGreaterThan(0);
    for (const request of real.seen) expect(request).not.toHaveProperty('oracle');
    for (const turn of t.turns) expect(turn.request).not.toHaveProperty('oracle');
  });

  it('sends no empty assistant message after an empty answer (APIs refuse empty content)', async () => {
    const seen: ModelRequest[] = [];
    const silent: Provider = {
      id: 'fake',
      kind: 'sim',
      simulated: true,
      async generate(request) {
        seen.push(request);
        return reply('');
      },
    };
    const t = await run(silent, conversation());
    expect(t.turns.map((x) => x.userTurn)).toEqual([0, 1, 2]);
    expect(seen[2]?.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'user', content: 'three' },
    ]);
  });

  it('bounds each message by its own budget and the whole case by maxTotalTurns; an unanswered message ends it', async () => {
    // five calls fit the run's budget of six model turns for the second message
    expect((await run(pinger([1, 5, 0]).provider, conversation(), 6)).stopReason).toBe('answered');
    const own = conversation();
    own.turns = own.turns?.map((t, i) => (i === 1 ? { ...t, maxTurns: 3 } : t));
    const cut = await run(pinger([1, 5, 0]).provider, own);
    expect(cut.stopReason).toBe('max-turns');
    expect(cut.turns.map((x) => x.userTurn)).toEqual([0, 0, 1, 1, 1]); // message 3 never sent
    const total = await run(pinger([1, 1, 1]).provider, conversation({ maxTotalTurns: 4 }));
    expect(total.stopReason).toBe('max-turns');
    expect(total.turns.map((x) => x.userTurn)).toEqual([0, 0, 1, 1]);
  });
});
