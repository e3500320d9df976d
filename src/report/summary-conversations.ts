import type { RunAggregate } from '../run-log/aggregate.js';
import { casePassHatK } from '../run-log/conversation-tally.js';
import { conversationCells, failingConversations, orderedPoints, pointText } from './conversation-summary.js';
import { pct } from './format.js';
import { mdCode, mdText } from './markdown-text.js';

const rate = (x: number | null) => (x === null ? '–' : pct(x));

/** Conversation cases listed at most (the rest are counted): the summary stays short in a PR comment. */
const MAX_LISTED = 20;

/**
 * The scripted conversations of a run for summary.md: per cell, pass^k (τ-bench: the share of conversations whose k
 * repeats all pass every grader) and where the failing trials first failed (the user message a grader failed at,
 * or the final state); then the conversations that did not pass every repeat. Empty without conversations. Pure.
 */
export function conversationsMarkdown(agg: RunAggregate): string[] {
  const cells = conversationCells(agg);
  if (cells.length === 0) return [];
  const k = agg.repeats;
  const lines = [
    '',
    '## Conversations',
    '',
    `Multi-turn cases. pass^${k}: the share of conversations whose ${k === 1 ? 'run reaches' : `${k} repeats all reach`} the goal state (final-state, whatever the calls: τ-bench's success), and whose ${k === 1 ? 'run passes' : `${k} repeats all pass`} every grader. Failed at: where each failing run first failed — the user message (turn) a grader failed at, or the final state when every message passed.`,
    '',
    `| renderer | provider | conversations | pass^${k}: goal state | pass^${k}: every grader | failed at |`,
    '|---|---|---:|---:|---:|---|',
  ];
  for (const c of cells) {
    const failed = orderedPoints(c.failedAt)
      .map(([p, n]) => `${pointText(p)}: ${n}`)
      .join(' · ');
    const provider = c.simulated ? `${c.provider} (simulated)` : c.provider;
    lines.push(
      `| ${mdText(c.renderer)} | ${mdText(provider)} | ${c.cases} | ${rate(c.statePassHatK)} | ${rate(c.passHatK)} | ${failed ? mdText(failed) : '–'} |`,
    );
  }
  const failing = failingConversations(agg);
  if (failing.length > 0) {
    lines.push('', `Conversations that did not pass every repeat (${failing.length}):`, '');
    for (const c of failing.slice(0, MAX_LISTED)) {
      const hk = casePassHatK(c, k);
      const state = casePassHatK(c, k, 'state');
      const where = orderedPoints(c.failedAt)
        .map(([p, n]) => `${pointText(p)}${n > 1 ? ` (×${n})` : ''}`)
        .join(', ');
      lines.push(
        `- ${mdCode(c.caseId)} in ${mdText(c.renderer)} × ${mdText(c.provider)}: passed ${c.passes}/${c.trials}${hk === null ? '' : `, pass^${k} ${pct(hk)}`}${state === null ? '' : ` (goal state: ${c.statePasses}/${c.stateTrials}, pass^${k} ${pct(state)})`}; failed at ${mdText(where)}`,
      );
    }
    if (failing.length > MAX_LISTED) lines.push(`- … and ${failing.length - MAX_LISTED} more (report.html lists all)`);
  }
  return lines;
}
