import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSuite, replaySuite } from '../../../tests/helpers/mock-server-client.js';
import { coderServer } from './index.js';

const SUITE = fileURLToPath(new URL('../../../suites/coder.yaml', import.meta.url));

/** Arguments for the expected calls whose free-text parameters the suite leaves unlisted. */
const FREE_TEXT_ARGS = {
  apply_diff: {
    path: 'src/utils/math.ts',
    diff: '<<<<<<< SEARCH\n:start_line:12\n-------\n  return sum(values) / (values.length - 1);\n=======\n  return sum(values) / values.length;\n>>>>>>> REPLACE',
  },
  ask_followup_question: {
    question: 'Which currency should formatCurrency use by default?',
    follow_up: [{ text: 'EUR' }, { text: 'USD' }],
  },
};

describe('suites/coder.yaml', () => {
  it('parses with SuiteSchema and covers reading, searching, editing, commands, follow-ups, irrelevance and Chinese', () => {
    const suite = loadSuite(SUITE);
    expect(suite.servers).toEqual({ coder: { builtin: 'coder' } });
    expect(suite.cases.length).toBeGreaterThanOrEqual(20);
    const tools = new Set(suite.cases.flatMap((c) => (c.expect.calls ?? []).map((x) => x.tool)));
    for (const t of [
      'read_file',
      'search_files',
      'apply_diff',
      'write_to_file',
      'execute_command',
      'ask_followup_question',
    ]) {
      expect(tools.has(t), t).toBe(true);
    }
    expect(suite.cases.filter((c) => c.expect.no_call).length).toBeGreaterThanOrEqual(2);
    expect(suite.cases.filter((c) => /[\u4e00-\u9fff]/.test(c.prompt)).length).toBeGreaterThanOrEqual(4);
    expect(new Set(suite.cases.map((c) => c.id)).size).toBe(suite.cases.length);
  });

  it('every expected call runs without a tool error and every answer_mentions fact appears in the results', async () => {
    const replays = await replaySuite(loadSuite(SUITE), coderServer.create, FREE_TEXT_ARGS);
    expect(replays.filter((r) => r.errors.length > 0 || r.missingFacts.length > 0)).toEqual([]);
  });
});
