import { oneLine } from './format.js';

/**
 * A Markdown code span that holds any text: a fence of backticks longer than any run inside it (CommonMark), padded
 * when the text starts or ends with a backtick; newlines flattened. For case ids, which a suite controls.
 */
export function mdCode(text: string): string {
  const flat = oneLine(text, 300);
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
