import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmMockHandle, startLlmMock } from '../mock-servers/llm/index.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { MAX_EXECUTED_CALLS } from '../src/runner/agent-loop.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';

const CALLS = 300;
let mock: LlmMockHandle;

beforeAll(async () => {
  // A model that answers the first turn with 300 calls at once, then with text once it has results.
  mock = await startLlmMock({
    responder: (request) =>
      request.messages.some((m) => m.role === 'tool')
        ? { text: 'The workbook has one sheet.' }
        : {
            toolCalls: Array.from({ length: CALLS }, (_, i) => ({
              id: `call_${i}`,
              name: 'get_workbook_metadata',
              arguments: { filepath: 'sales.xlsx' },
            })),
          },
  });
});
afterAll(async () => {
  await mock?.close();
});

describe('a model that answers with hundreds of tool calls at once (real CLI, real SDK client, wire mock)', () => {
  it('runs the first 128 of one reply, answers the rest as not executed, and grades them all', async () => {
    const { file } = writeConfig({
      suites: [join(FIXTURES, 'mini.yaml')],
      renderers: ['native-functions'],
      providers: [{ id: 'openai-compatible:m', options: { baseURL: `${mock.url}/v1`, maxRetries: 0 } }],
    });
    const res = await runCliWithEnv(['eval', '-c', file, '-q', '--filter', 'metadata'], {});
    expect(res.code, res.stderr).toBe(0);
    const [record] = readRecords(join(runDirFrom(res.stderr), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    expect(record?.error).toBeUndefined();
    const executed = record?.transcript.turns[0]?.executed ?? [];
    // every call id gets an answer (the API needs one each), but only the first 128 reached the server
    expect(executed).toHaveLength(CALLS);
    const notRun = executed.filter((e) => e.result.includes('was not executed'));
    expect(notRun).toHaveLength(CALLS - MAX_EXECUTED_CALLS);
    expect(notRun[0]?.result).toBe(
      `get_workbook_metadata was not executed: this message holds ${CALLS} tool calls, more than the ${MAX_EXECUTED_CALLS} run from one message.`,
    );
    expect(executed.slice(0, MAX_EXECUTED_CALLS).every((e) => !e.isError)).toBe(true);
    // graded as the model made them: 300 calls where one was expected
    expect(record?.grades.find((g) => g.grader === 'correct-arguments')?.pass).toBe(false);
    // the results went back with the next request, one per call
    const followUp = mock.requests.at(-1)?.neutral?.messages.filter((m) => m.role === 'tool');
    expect(followUp).toHaveLength(CALLS);
  });
});
