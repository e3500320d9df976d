import type { Turn } from '../contracts/transcript.js';
import type { CaseRecord } from '../run-log/schema.js';
import { jsonText } from '../util/json-text.js';
import { escapeHtml as e } from './html-escape.js';

/**
 * Indented JSON for the drill-down. jsonText, and 32 indented levels at most: a model's arguments may nest deeper
 * than JSON.stringify can recurse, and indenting thousands of levels makes megabytes of spaces.
 */
const json = (v: unknown) => jsonText(v, { indent: 2, indentLevels: 32 }) ?? 'undefined';

function pre(cls: string, text: string): string {
  return `<pre class="${cls}">${e(text)}</pre>`;
}

function messageText(m: Turn['request']['messages'][number]): string {
  switch (m.role) {
    case 'user':
      return `user:\n${m.content}`;
    case 'assistant':
      return `assistant:\n${m.content}${m.toolCalls?.length ? `\n[tool calls] ${json(m.toolCalls)}` : ''}`;
    case 'tool':
      return `tool ${m.name} (${m.toolCallId})${m.isError ? ' [error]' : ''}:\n${m.content}`;
  }
}

/** A turn of `toolgauge grade`: a recorded reply whose request was never known (empty prompt, no messages). */
function isRecordedTurn(t: Turn): boolean {
  return t.response.finishReason === 'recorded' && t.request.system === '' && t.request.messages.length === 0;
}

function turnHtml(t: Turn, prev: Turn | undefined): string {
  const out: string[] = [`<div class="turn"><h4>Turn ${t.index + 1} · protocol ${e(t.request.protocol)}</h4>`];
  if (isRecordedTurn(t)) {
    out.push('<p class="muted">Recorded reply, graded offline: the prompt it answered was not recorded.</p>');
  } else {
    if (!prev || prev.request.system !== t.request.system) {
      out.push('<h5>Rendered system prompt</h5>', pre('prompt', t.request.system));
    } else out.push('<p class="muted">System prompt: same as the previous turn.</p>');
    if (t.request.tools?.length && (!prev || json(prev.request.tools) !== json(t.request.tools))) {
      out.push('<h5>Native tool definitions</h5>', pre('tools', json(t.request.tools)));
    }
    const fresh = t.request.messages.slice(prev ? prev.request.messages.length : 0);
    out.push(
      `<h5>Messages${prev ? ' (new this turn)' : ''}</h5>`,
      pre('messages', fresh.map(messageText).join('\n\n')),
    );
  }
  const r = t.response;
  out.push(
    `<h5>Raw reply <span class="muted">finish: ${e(r.finishReason)} · ${r.latencyMs} ms${r.usage ? ` · tokens in ${r.usage.input} / out ${r.usage.output}` : ''}</span></h5>`,
    pre('reply', r.text),
  );
  if (r.toolCalls.length) out.push('<h5>Native tool calls</h5>', pre('native', json(r.toolCalls)));
  out.push('<h5>Parsed calls</h5>', pre('parsed', json(t.parse.calls)));
  if (t.parse.diagnostics.length) out.push('<h5>Parse diagnostics</h5>', pre('diag', json(t.parse.diagnostics)));
  if (t.executed.length) {
    out.push(
      '<h5>Tool results fed back</h5>',
      pre(
        'executed',
        t.executed
          .map((x) => `${x.server}/${x.tool} ${json(x.args)}${x.isError ? ' [error]' : ''}\n→ ${x.result}`)
          .join('\n\n'),
      ),
    );
  }
  out.push('</div>');
  return out.join('\n');
}

/** One case's drill-down: a <details> row that opens on click. Every string from the run log is escaped. */
export function caseHtml(r: CaseRecord): string {
  const failed = r.grades.filter((g) => !g.pass).map((g) => g.grader);
  const graded = r.grades.map((g) => g.grader);
  const failing = failed.length > 0 || r.error !== undefined;
  const chips = r.error
    ? `<span class="chip err">error ${e(r.error.code)}</span>`
    : r.grades.map((g) => `<span class="chip ${g.pass ? 'ok' : 'bad'}">${e(g.grader)}</span>`).join(' ');
  const grades = r.error
    ? `<p class="errtext">Infrastructure error ${e(r.error.code)}: ${e(r.error.message)}</p>`
    : `<ul class="grades">${r.grades
        .map(
          (g) =>
            `<li class="${g.pass ? 'ok' : 'bad'}"><b>${g.pass ? 'PASS' : 'FAIL'} ${e(g.grader)}</b>: ${e(g.reason)}</li>`,
        )
        .join('')}</ul>`;
  const turns = r.transcript.turns.map((t, i) => turnHtml(t, r.transcript.turns[i - 1])).join('\n');
  return [
    `<details class="case" data-renderer="${e(r.renderer)}" data-provider="${e(r.provider)}" data-failing="${failing ? 1 : 0}" data-failed=" ${e(failed.join(' '))} " data-graded=" ${e(graded.join(' '))} ">`,
    `<summary><code>${e(r.key)}</code> ${chips}</summary>`,
    '<div class="body">',
    `<p class="muted">${r.simulated ? 'simulated provider · ' : ''}stop: ${e(r.transcript.stopReason)} · ${r.durationMs} ms · prompt ${r.promptTokens} tokens</p>`,
    '<h4>Grades</h4>',
    grades,
    '<h4>Final answer</h4>',
    pre('final', r.transcript.finalText),
    turns,
    '</div></details>',
  ].join('\n');
}
