import { describe, expect, it } from 'vitest';
import type { CaseSession } from '../catalog/server-pool.js';
import type { ModelRequest, ModelResponse } from '../contracts/model.js';
import type { Provider } from '../contracts/provider.js';
import { CaseAbort, runAgentLoop } from './agent-loop.js';

const session: CaseSession = {
  catalog: { tools: [], source: 'live', hash: '' },
  call: async () => ({ text: '', isError: false }),
  readState: async () => ({ value: {} }),
  release: async () => {},
};

const request: ModelRequest = {
  system: 'You are a helpful AI assistant.',
  messages: [{ role: 'user', content: 'Hello' }],
  protocol: 'xml-tags',
  meta: { caseId: 's/c', repeat: 0, seed: 0, renderer: 'names-only', turn: 0 },
};

const answer: ModelResponse = {
  text: 'Hi.',
  toolCalls: [],
  finishReason: 'stop',
  latencyMs: 0,
  raw: { request: null, response: null },
};

describe('runAgentLoop', () => {
  it("gives every provider the case's signal, whatever its generate() declares", async () => {
    const seen: unknown[] = [];
    const provider: Provider = {
      id: 'test:one-parameter',
      kind: 'sim',
      simulated: true,
      // Declares no parameter (generate.length is 0): it still receives the signal as its second argument.
      generate(...args: [ModelRequest, AbortSignal?]) {
        seen.push(args[1]);
        return Promise.resolve(answer);
      },
    };
    const abort = new CaseAbort();
    const limits = { maxTurns: 2, turnMs: 60_000, toolMs: 60_000 };
    const transcript = await runAgentLoop(request, provider, session, limits, abort);
    expect(transcript.stopReason).toBe('answered');
    expect(seen).toEqual([abort.signal]);
    expect(abort.signal.aborted).toBe(false);
  });

  it('an aborted case aborts its signal with the reason', () => {
    const abort = new CaseAbort();
    const reason = new Error('run interrupted');
    abort.abort(reason);
    expect(abort.isAborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
  });
});
