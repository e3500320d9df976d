import { describe, expect, it } from 'vitest';
import { recordedTranscript } from '../offline/recorded-transcript.js';
import type { CaseRecord } from '../run-log/schema.js';
import { caseHtml } from './html-case.js';

function recordOf(transcript: CaseRecord['transcript']): CaseRecord {
  return {
    type: 'case',
    key: 'excel/read|recorded|prod|0',
    suite: 'excel',
    case: 'read',
    renderer: 'recorded',
    provider: 'prod',
    simulated: false,
    repeat: 0,
    protocol: 'xml-tags',
    catalogHash: 'h',
    promptTokens: 0,
    transcript,
    grades: [{ grader: 'parseable', pass: false, score: 0, reason: 'no call found' }],
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 1,
    usage: { input: 0, output: 0 },
  };
}

describe('caseHtml', () => {
  it('a recorded reply (toolgauge grade) says its prompt was not recorded instead of showing empty sections', () => {
    const t = recordedTranscript(
      [{ text: 'Sure <b>', toolCalls: [], results: [] }],
      'xml-tags',
      'excel/read',
      'recorded',
    );
    const html = caseHtml(recordOf(t));
    expect(html).toContain('Recorded reply, graded offline: the prompt it answered was not recorded.');
    expect(html).not.toContain('Rendered system prompt');
    expect(html).toContain('Sure &lt;b&gt;');
  });

  it('a live turn shows its rendered prompt and messages', () => {
    const t = recordedTranscript([{ text: 'x', toolCalls: [], results: [] }], 'xml-tags', 'excel/read', 'r');
    const turn = t.turns[0] as (typeof t.turns)[number];
    turn.request = { ...turn.request, system: 'You are a tool user.', messages: [{ role: 'user', content: 'hi' }] };
    turn.response = { ...turn.response, finishReason: 'stop' };
    const html = caseHtml(recordOf(t));
    expect(html).toContain('Rendered system prompt');
    expect(html).toContain('You are a tool user.');
    expect(html).toContain('user:\nhi');
    expect(html).not.toContain('graded offline');
  });
});
