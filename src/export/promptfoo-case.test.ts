import { afterAll, describe, expect, it } from 'vitest';
import { PromptfooCaseRunner } from './promptfoo-case.js';
import { gradeForPromptfoo } from './promptfoo-grade.js';

const expectRead = {
  calls: [
    {
      tool: 'get_workbook_metadata',
      args: { filepath: ['sales.xlsx'], include_ranges: [false, ''] },
    },
  ],
};

describe('PromptfooCaseRunner (the promptfoo provider, in process)', () => {
  const runners: PromptfooCaseRunner[] = [];
  const runner = (config: unknown) => {
    const r = new PromptfooCaseRunner(config, process.cwd());
    runners.push(r);
    return r;
  };
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.close()));
  });

  it('runs renderer + openai SDK provider against the wire mock + the excel MCP server, and grades it', async () => {
    const r = runner({
      renderer: 'native-functions',
      provider: 'openai:gpt-4o-mini',
      llmMock: { persona: 'oracle' },
      servers: { excel: { builtin: 'excel' } },
    });
    const res = await r.run('Show me the sheets in sales.xlsx.', { id: 'meta', expect: expectRead });
    expect(res.error).toBeUndefined();
    expect(res.metadata.toolCalls.map((c) => c.name)).toEqual(['get_workbook_metadata']);
    expect(res.metadata.toolCalls[0]?.is_error).toBe(false);
    expect(res.metadata.toolgauge.protocol).toBe('native');
    expect(res.metadata.toolgauge.transcript.turns).toHaveLength(2);
    expect(res.output.length).toBeGreaterThan(0);
    expect(await gradeForPromptfoo('correct-arguments', res.metadata)).toMatchObject({ pass: true, score: 1 });
    expect(await gradeForPromptfoo('no-call', res.metadata)).toMatchObject({ pass: true, reason: /does not apply/ });
  });

  it('reports model mistakes as failing grades, not errors (sim:fence-wrapper fences its xml-tags calls)', async () => {
    const r = runner({
      renderer: 'full-details',
      provider: 'sim:fence-wrapper',
      servers: { excel: { builtin: 'excel' } },
    });
    const verdicts = [];
    for (const i of [1, 2, 3, 4, 5, 6]) {
      const res = await r.run(`Show me the sheets in sales.xlsx. (${i})`, { expect: expectRead });
      expect(res.error).toBeUndefined();
      verdicts.push((await gradeForPromptfoo('markdown-wrapped', res.metadata)).pass);
    }
    expect(verdicts).toContain(false);
  });

  it('rejects a bad config and bad test vars with one line naming the key', async () => {
    expect(() => new PromptfooCaseRunner({ renderer: 'full-details', bogus: 1 }, '.')).toThrow(/config: .*bogus/);
    const r = runner({ tools: [{ name: 't', inputSchema: { type: 'object' } }] });
    await expect(r.run('hi', { id: 'x', expect: { calls: [{ tol: 't' }] } })).rejects.toThrow(
      /promptfoo test 'x' vars\.expect/,
    );
  });

  it('fails a grader assertion clearly when the response did not come from the toolgauge provider', async () => {
    expect(await gradeForPromptfoo('parseable', {})).toMatchObject({
      pass: false,
      reason: /toolgauge promptfoo provider/,
    });
  });
});
