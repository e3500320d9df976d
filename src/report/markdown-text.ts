import { visible } from '../util/visible-text.js';

/**
 * Markdown-safe text for summary.md (also a PR comment and the GitHub step summary) and compare.md. Everything a
 * model, a server, a suite or a run log controls (tool names and arguments, reasons, error messages, case keys,
 * suite and server names, labels, run ids) goes through one of these before it is put in a line:
 *
 * - {@link mdText}: inline text with Markdown's active characters backslash-escaped, so it can make no HTML element,
 *   entity, link, image, emphasis, code span or table cell boundary, and with its line breaks collapsed, so it can
 *   start no heading, list or quote. Ordinary labels (`names-only`, `sim:guesser`, `excel/read-sheet`) come out as
 *   they went in. Safe in table cells.
 * - {@link mdCode}: a code span that cannot be closed from inside (its backtick fence is longer than any run of
 *   backticks in the text). For identifiers in list items; tables use mdText, whose escapes need no table rule.
 *
 * Control characters are made visible in both (they would reach the terminal when the summary is printed). Text in
 * a code span mentions no one on GitHub; mdText breaks each `@mention`.
 */

/** Longest text kept on one line (a reason, an error message): the rest is cut with an ellipsis. */
export const MD_MAX = 200;

/** One line: runs of whitespace (line breaks included) as one space, trimmed, at most `max` characters. */
function oneLine(text: string, max = MD_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}…` : flat;
}

/**
 * ASCII punctuation that starts or ends Markdown (CommonMark and GitHub's extensions): escapes, code spans,
 * emphasis, links and images, raw HTML and autolinks, entities, table pipes, strikethrough, headings' closing
 * hashes, math (`$`); `!` needs no escape, as the `[` of an image is escaped. `_` only where it could open or close emphasis: between two letters or digits it cannot
 * (`read_data_from_excel` stays readable).
 */
const ACTIVE = /[\\`*[\]<>&|~#$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/**
 * An `@` that GitHub would read as a mention (of a user, `@name`, or a team, `@org/team`): not after a letter, digit
 * or `_` (an e-mail address mentions no one), and followed by a letter or digit.
 */
const MENTION = /(?<![\p{L}\p{N}_])@(?=[\p{L}\p{N}])/gu;

/**
 * `text` as inline Markdown text: one line (at most `max` characters), every active character escaped, and a
 * zero-width space after each `@` that would mention someone, so a summary posted as a PR comment pings no one (a
 * backslash escape does not stop GitHub's mentions; the reader sees the same text).
 */
export function mdText(text: string, max = MD_MAX): string {
  return visible(oneLine(text, max))
    .replace(ACTIVE, (c) => `\\${c}`)
    .replace(MENTION, '@\u200b');
}

/**
 * `text` as one inline code span, whatever it holds: one line, fenced by one more backtick than its longest run of
 * backticks, padded with a space where it begins or ends with a backtick or a space (CommonMark strips one space each
 * side). Not for table cells (a `|` inside a code span still splits a GFM table row): use mdText there.
 */
export function mdCode(text: string, max = MD_MAX): string {
  const body = visible(oneLine(text, max)) || ' ';
  const longest = Math.max(0, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(body) ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}
