import { describe, expect, it } from 'vitest';
import { transcriptOf } from '../../tests/helpers/grader-fixtures.js';
import type { Grade, Grader } from '../contracts/grade.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { Transcript } from '../contracts/transcript.js';
import { gradeCase } from './grade-case.js';
import { graders } from './index.js';

const call = (name: string, args: Record<string, unknown>) =>
  `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

/** A conversation: each entry is the replies that answered one user message (tagged with its index). */
function conversation(messages: { text: string; result?: string }[][], stopReason: Transcript['stopReason']) {
  const flat = messages.flatMap((replies, u) => replies.map((r) => ({ ...r, u })));
  const t = transcriptOf(
    flat.map((r) => ({
      text: r.text,
      ...(r.result ? { executed: [{ name: 'set_parameter', args: {}, result: r.result }] } : {}),
    })),
  );
  t.turns.forEach((turn, i) => {
    turn.userTurn = flat[i]?.u ?? 0;
  });
  return { ...t, stopReason };
}

const setCall = (name: string, value: number) => ({
  tool: 'set_parameter',
  args: { parameter_name: [name], value: [value] },
});

const twoMessages: SuiteCase = {
  id: 'conv',
  prompt: 'Set the income tax to 0.3.',
  turns: [
    { prompt: 'Set the income tax to 0.3.', expect: { calls: [setCall('income_tax_rate', 0.3)] } },
    { prompt: 'And the VAT to 0.2.', expect: { calls: [setCall('vat_rate', 0.2)] } },
  ],
  expect: {},
};

const byName = (grades: Grade[]) => Object.fromEntries(grades.map((g) => [g.grader, g]));

describe('gradeCase: conversations graded message by message', () => {
  it('grades each user message against its own expectation, naming the first turn that failed', () => {
    const t = conversation(
      [
        [
          { text: call('set_parameter', { parameter_name: 'income_tax_rate', value: 0.3 }), result: 'ok' },
          { text: 'Done.' },
        ],
        [{ text: call('set_parameter', { parameter_name: 'vat_rate', value: 0.25 }), result: 'ok' }, { text: 'Done.' }],
      ],
      'answered',
    );
    const g = byName(
      gradeCase(Object.values(graders), { case: twoMessages, transcript: t, protocol: 'xml-tags', tools: [] }),
    );
    expect(g['correct-arguments']).toMatchObject({
      pass: false,
      score: 0.5,
      data: {
        failedTurn: 2,
        turns: [
          { turn: 1, pass: true, score: 1 },
          { turn: 2, pass: false, score: 0 },
        ],
      },
    });
    expect(g['correct-arguments']?.reason).toMatch(/^turn 2: called set_parameter with value=0.25/);
    expect(g.parseable).toMatchObject({ pass: true, data: { turns: [{ turn: 1 }, { turn: 2 }] } });
    expect(g.parseable?.reason).toMatch(/^turn 1: .*; turn 2: /);
    // the call of the first message is not an "extra call" of the second: each message sees its own turns
    expect(g['correct-arguments']?.reason).not.toContain('extra');
  });

  it('a message the conversation never reached fails every grader that would judge it', () => {
    const t = conversation(
      [[{ text: call('set_parameter', { parameter_name: 'income_tax_rate', value: 0.3 }), result: 'ok' }]],
      'max-turns',
    );
    const g = byName(
      gradeCase(Object.values(graders), { case: twoMessages, transcript: t, protocol: 'xml-tags', tools: [] }),
    );
    expect(g['correct-arguments']?.pass).toBe(false);
    expect(g['correct-arguments']?.data?.failedTurn).toBe(2);
    expect(g['correct-arguments']?.reason).toBe(
      'turn 2: never reached: the conversation stopped at turn 1 (max-turns)',
    );
  });

  it('a grader of scope conversation grades the whole case once; a one-message case is graded as it always was', () => {
    const seen: number[] = [];
    const whole: Grader = {
      name: 'whole',
      description: 'counts turns',
      scope: 'conversation',
      grade: (input) => {
        seen.push(input.transcript.turns.length);
        return { grader: 'whole', pass: true, score: 1, reason: `${input.transcript.turns.length} turns` };
      },
    };
    const t = conversation([[{ text: 'a' }], [{ text: 'b' }]], 'answered');
    expect(gradeCase([whole], { case: twoMessages, transcript: t, protocol: 'xml-tags', tools: [] })).toEqual([
      { grader: 'whole', pass: true, score: 1, reason: '2 turns' },
    ]);
    const single: SuiteCase = { id: 's', prompt: 'p', expect: { calls: [setCall('vat_rate', 0.2)] } };
    const plain = transcriptOf([{ text: call('set_parameter', { parameter_name: 'vat_rate', value: 0.2 }) }]);
    const input = { case: single, transcript: plain, protocol: 'xml-tags' as const, tools: [] };
    expect(gradeCase(Object.values(graders), input)).toEqual(
      Object.values(graders)
        .map((g) => g.grade(input))
        .filter((g) => g !== null),
    );
  });
});
