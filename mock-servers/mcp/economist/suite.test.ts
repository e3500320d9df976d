import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSuite, replaySuite } from '../../../tests/helpers/mock-server-client.js';
import { economistServer } from './index.js';

const SUITE = fileURLToPath(new URL('../../../suites/economist.yaml', import.meta.url));

describe('suites/economist.yaml', () => {
  it('parses with SuiteSchema, names the builtin server, has ≥ 20 cases including sequences and irrelevance', () => {
    const suite = loadSuite(SUITE);
    expect(suite.servers).toEqual({ economist: { builtin: 'economist' } });
    expect(suite.cases.length).toBeGreaterThanOrEqual(20);
    expect(suite.cases.filter((c) => c.expect.order === 'sequence').length).toBeGreaterThanOrEqual(3);
    expect(suite.cases.some((c) => c.expect.no_call)).toBe(true);
    expect(new Set(suite.cases.map((c) => c.id)).size).toBe(suite.cases.length);
  });

  it('every expected call runs without a tool error and every answer_mentions fact appears in the results', async () => {
    const replays = await replaySuite(loadSuite(SUITE), economistServer.create);
    expect(replays.filter((r) => r.errors.length > 0 || r.missingFacts.length > 0)).toEqual([]);
  });
});
