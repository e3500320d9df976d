import type { RequestView } from './request-view.js';
import type { FedResult } from './result-reader.js';

const SUMMARY_CHARS = 160;

function summarize(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS)}…` : flat;
}

/** The answer after results: cites every expected fact that the results contain, plus a short summary. */
export function finalAnswer(view: RequestView, answerMentions: string[]): string {
  const results: FedResult[] = view.results.length > 0 ? view.results : view.latest;
  // a fact may come from an earlier message's results (a follow-up question about them)
  const all = view.allResults.map((r) => r.content).join('\n');
  const facts = answerMentions.filter((m) => m && all.includes(m));
  const failed = results.filter((r) => r.isError);
  const lines: string[] = [];
  if (view.chinese) {
    lines.push(
      failed.length > 0 ? `工具调用返回了错误（${failed.map((r) => r.name).join(', ')}）。` : '根据工具返回的结果：',
    );
    if (facts.length > 0) lines.push(`结果包含：${facts.join('、')}。`);
  } else {
    lines.push(
      failed.length > 0
        ? `The tool reported an error (${failed.map((r) => r.name).join(', ')}).`
        : 'Based on the tool results:',
    );
    if (facts.length > 0) lines.push(`The results include: ${facts.join(', ')}.`);
  }
  for (const r of results) lines.push(`- ${r.name}: ${summarize(r.content)}`);
  return lines.join('\n');
}

/** A prose answer with no call: the task needs no tool, or the request did not show the needed tool. */
export function proseAnswer(
  view: RequestView,
  reason: 'no-call' | 'not-revealed',
  answerMentions: string[] = [],
): string {
  const facts = answerMentions.filter((m) => m);
  if (reason === 'no-call') {
    const base = view.chinese
      ? '这个问题不需要使用工具，我可以直接回答。'
      : 'This does not need a tool; I can answer directly.';
    if (facts.length === 0) return base;
    return view.chinese ? `${base}答案：${facts.join('、')}。` : `${base} Answer: ${facts.join(', ')}.`;
  }
  return view.chinese
    ? '我没有可以完成这个任务的工具的详细信息，所以无法直接操作。请提供相关内容，我会尽力帮助你。'
    : "I don't have a tool I can use for this, so I can't do it directly. If you share the content, I'll help with it.";
}

/** Case study 002: the line a model leaves when it believes the tool result will arrive later. */
export function danglingWait(view: RequestView): string {
  return view.chinese ? '(等待工具返回结果...)' : 'Waiting for the tool result...';
}

/** A short lead-in before a call (case study 001 style). */
export function leadIn(view: RequestView, tool: string): string {
  return view.chinese ? `我需要使用 \`${tool}\` 工具来完成这个任务。` : `I'll use the \`${tool}\` tool for this.`;
}
