import type { SuiteCase } from '../../src/contracts/suite.js';

/** The assistant preamble every text renderer starts with (case study 000's agent had the same kind of line). */
export const PREAMBLE = 'You are a helpful AI assistant.';

/** Joins prompt sections with one blank line, skipping empty ones. */
export function joinSections(...sections: (string | undefined)[]): string {
  return sections
    .map((s) => s?.trim())
    .filter((s): s is string => !!s)
    .join('\n\n');
}

/** The first request's messages: the case prompt as the single user message. */
export function caseMessages(c: SuiteCase): [{ role: 'user'; content: string }] {
  return [{ role: 'user', content: c.prompt }];
}

/** First line of a description, for one-line listings. */
export function firstLine(text: string | undefined): string {
  return (text ?? '').trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
}

/** The short tool-use section for native tool calling (after case study 004's `getSharedToolUseSection`). */
export const NATIVE_TOOL_USE = [
  '====',
  '',
  'TOOL USE',
  '',
  'You have access to a set of tools. Use the provider-native tool-calling mechanism to call them. ' +
    'Do not include XML markup or examples of tool calls in your reply. ' +
    'You may call several tools in one response when they do not depend on each other. ' +
    'Tool results come back as tool messages: use them to answer the user. ' +
    'When no tool is needed, or once you have what you need, answer the user directly.',
].join('\n');
