import type { RunAggregate } from '../run-log/aggregate.js';
import { type ConversationCase, casePassHatK, type FailurePoint } from '../run-log/conversation-tally.js';
import { conversationCells, orderedPoints, pointText } from './conversation-summary.js';
import { pct } from './format.js';
import { escapeHtml as e } from './html-escape.js';
import { heatStyle } from './html-heat.js';

const failedText = (points: Map<FailurePoint, number>) =>
  orderedPoints(points)
    .map(([p, n]) => `${pointText(p)}: ${n}`)
    .join(' · ');

const rateCell = (x: number | null) => `<td style="${heatStyle(x ?? 0)}">${x === null ? '–' : pct(x)}</td>`;

/**
 * report.html's conversations: per cell, pass^k and where failing runs first failed; then every conversation case
 * (rows, with its renderer) against the providers (columns): passes of its repeats, its pass^k and where it failed.
 * Empty without conversations. Pure; every text from the run is escaped.
 */
export function conversationsSection(agg: RunAggregate): string {
  const cells = conversationCells(agg);
  if (cells.length === 0) return '';
  const k = agg.repeats;
  const summary = cells.map(
    (c) =>
      `<tr><td>${e(c.renderer)}</td><td>${e(c.provider)}${c.simulated ? ' <span class="sim">(simulated)</span>' : ''}</td><td>${c.cases}</td>` +
      `${rateCell(c.statePassHatK)}${rateCell(c.passHatK)}<td>${e(failedText(c.failedAt)) || '–'}</td></tr>`,
  );
  const providers = [...new Set(agg.conversations.cases().map((c) => c.provider))];
  const rows = new Map<string, Map<string, ConversationCase>>();
  for (const c of agg.conversations.cases()) {
    const key = `${c.caseId}\u0000${c.renderer}`;
    let row = rows.get(key);
    if (!row) {
      row = new Map();
      rows.set(key, row);
    }
    row.set(c.provider, c);
  }
  const caseRows = [...rows].map(([key, byProvider]) => {
    const [caseId = '', renderer = ''] = key.split('\u0000');
    const tds = providers.map((p) => {
      const c = byProvider.get(p);
      if (!c) return '<td>–</td>';
      const hk = casePassHatK(c, k);
      const state = casePassHatK(c, k, 'state');
      const where = failedText(c.failedAt);
      const goal = state === null ? '' : `<small>goal state ${c.statePasses}/${c.stateTrials}</small>`;
      return `<td style="${heatStyle(hk ?? 0)}" title="${e(where ? `failed at ${where}` : 'passed every repeat')}">${c.passes}/${c.trials}${hk === null ? '' : ` · ^${k} ${pct(hk)}`}${goal}${where ? `<small>${e(where)}</small>` : ''}</td>`;
    });
    return `<tr><td>${e(caseId)}</td><td>${e(renderer)}</td>${tds.join('')}</tr>`;
  });
  return [
    '<section id="conversations"><h2>Conversations: pass^k and the turn each failure happened at</h2>',
    `<p class="muted">Multi-turn cases. pass^${k}: the share of a cell's conversations whose ${k === 1 ? 'run reaches' : `${k} repeats all reach`} the goal state (final-state, whatever the calls: τ-bench's success), and whose ${k === 1 ? 'run passes' : `${k} repeats all pass`} every grader. Failed at: where each failing run first failed: the user message (turn) a grader failed at, or the final state when every message passed. Below, each conversation: passes of its runs (every grader), pass^${k}, goal-state passes and where it failed.</p>`,
    `<table class="conv"><tr><th>renderer</th><th>provider</th><th>conversations</th><th>pass^${k}: goal state</th><th>pass^${k}: every grader</th><th>failed at</th></tr>${summary.join('')}</table>`,
    `<table class="conv-cases"><tr><th>case</th><th>renderer</th>${providers.map((p) => `<th>${e(p)}</th>`).join('')}</tr>${caseRows.join('')}</table>`,
    '</section>',
  ].join('\n');
}
