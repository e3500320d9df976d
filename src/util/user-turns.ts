import type { Expect, SuiteCase } from '../contracts/suite.js';

/** One user message of a case and what it expects: a one-message case has one, a conversation one per turn. */
export interface UserMessage {
  prompt: string;
  expect: Expect;
  /** Model turns allowed to answer it, when the message sets its own bound. */
  maxTurns?: number;
}

/** Whether the case is a scripted conversation (`turns:`), graded and driven message by message. */
export function isConversation(c: SuiteCase): boolean {
  return c.turns !== undefined;
}

/** The case's user messages in order. */
export function userMessagesOf(c: SuiteCase): UserMessage[] {
  if (!c.turns) return [{ prompt: c.prompt, expect: c.expect }];
  return c.turns.map((t) => ({
    prompt: t.prompt,
    expect: t.expect ?? {},
    ...(t.maxTurns !== undefined ? { maxTurns: t.maxTurns } : {}),
  }));
}

/**
 * The case as one of its user messages is judged: that message as `prompt`, its expectation as `expect`, no `turns`.
 * A one-message case is itself.
 */
export function caseOfTurn(c: SuiteCase, userTurn: number): SuiteCase {
  if (!c.turns) return c;
  const turn = c.turns[userTurn];
  const { turns: _turns, ...rest } = c;
  return { ...rest, prompt: turn?.prompt ?? '', expect: turn?.expect ?? {} };
}
