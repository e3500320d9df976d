import { describe, expect, it } from 'vitest';
import type { Standing } from './race.js';
import { tuneHtml } from './tune-html.js';
import { tuneMarkdown } from './tune-markdown.js';
import type { TuneResult } from './tune-result.js';

const HOSTILE = 'x<img src=y onerror=alert(1)>|**b**`\u001b[2J';

function standing(label: string, over: Partial<Standing> = {}): Standing {
  return {
    label,
    status: 'recommended',
    cases: 10,
    graded: 10,
    pass: 9,
    rate: 0.9,
    wilson95: [0.6, 0.98],
    tokens: 100,
    calls: 20,
    pareto: true,
    ...over,
  };
}

function result(): TuneResult {
  const loser = standing(`${HOSTILE}2`, {
    status: 'eliminated',
    rate: 0.1,
    pass: 1,
    pareto: false,
    eliminated: {
      round: 1,
      candidate: `${HOSTILE}2`,
      by: HOSTILE,
      reason: 'worse',
      onlyThis: 0,
      onlyOther: 8,
      p: 0.008,
      pAdjusted: 0.008,
    },
  });
  return {
    format: 'toolgauge.tune/1',
    out: '/tmp/x',
    startedAt: '',
    finishedAt: '',
    seed: 1,
    grader: 'correct-arguments',
    objective: 'pass-rate',
    alpha: 0.05,
    margin: 0.1,
    space: null,
    suites: [{ name: HOSTILE, cases: 10, gradable: 10 }],
    cases: 10,
    candidates: [HOSTILE, `${HOSTILE}2`],
    interrupted: false,
    budget: { spent: false },
    estimate: {
      candidates: 2,
      providers: 1,
      cases: 10,
      grid: { calls: 40, tokens: 4000 },
      firstRound: { calls: 40, tokens: 4000 },
      race: { calls: 40, tokens: 4000 },
      raceCases: 10,
      perCell: [],
    },
    calls: { spent: 40, paid: 40, reused: 0, grid: 40 },
    tokens: 4000,
    providers: [
      {
        provider: `p${HOSTILE}`,
        simulated: false,
        stopReason: 'one-left',
        recommended: standing(HOSTILE),
        candidates: [standing(HOSTILE), loser],
        pareto: [HOSTILE],
        rounds: [
          {
            round: 1,
            cases: 10,
            newCases: 10,
            candidates: 2,
            leader: HOSTILE,
            eliminated: [loser.eliminated!],
            calls: 40,
          },
        ],
        calls: 40,
        tokens: 4000,
        gridCalls: 40,
      },
    ],
    snippet: 'renderers:\n  - name: "```\\n# heading"\n',
  };
}

describe('tune.md and tune.html', () => {
  it('escape every label, id and name a space, a suite or a provider controls', () => {
    const md = tuneMarkdown(result());
    // Markdown makes no element of a backslash-escaped `<`
    expect(md).not.toMatch(/(?<!\\)<img/);
    expect(md).not.toContain('\u001b');
    expect(md).toContain('x\\<img src=y onerror=alert(1)\\>\\|\\*\\*b\\*\\*\\`');
    // the snippet's fence is longer than any backtick run in it
    expect(md).toMatch(/^````yaml$/m);
    const html = tuneHtml(result());
    expect(html).not.toContain('<img');
    expect(html).not.toContain('\u001b');
    expect(html).toContain('x&lt;img src=y onerror=alert(1)&gt;|**b**`\\x1b[2J');
    expect(html).not.toMatch(/<script/i);
  });
});
