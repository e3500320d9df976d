import type { Message } from '../contracts/model.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { Transcript, Turn } from '../contracts/transcript.js';
import { oracleOf } from '../render/oracle-of.js';
import { userMessagesOf } from '../util/user-turns.js';
import { answerMessage, type LoopParts, runAgentLoop } from './agent-loop.js';

/**
 * Runs a case's conversation. A one-message case is the agent loop as it always was. A scripted conversation (a case
 * with `turns`) sends its user messages in order, each after the agent answered the previous one: the history so far,
 * the agent's answer (unless it was empty), then the next message, in one request. Each message gets its own turn budget (its `maxTurns`,
 * else the case's, else the run's), bounded by what is left of the case's `maxTotalTurns`. The conversation ends
 * early when a message is not answered (its budget ran out with a call pending): the later messages are not sent, and
 * their expectations fail as never reached.
 */
export async function runConversation(parts: LoopParts, testCase: SuiteCase): Promise<Transcript> {
  const { first, provider, session, limits, abort, offered, search, oracle } = parts;
  if (!testCase.turns) return runAgentLoop(first, provider, session, limits, abort, offered, search, oracle);
  const turns: Turn[] = [];
  const total = testCase.maxTotalTurns ?? Number.POSITIVE_INFINITY;
  let messages: Message[] = [...first.messages];
  let finalText = '';
  let stopReason: Transcript['stopReason'] = 'answered';
  for (const [u, message] of userMessagesOf(testCase).entries()) {
    // the answer, then the next message (an empty answer is no message: APIs refuse empty content)
    if (u > 0)
      messages = [
        ...messages,
        ...(finalText !== '' ? [{ role: 'assistant' as const, content: finalText }] : []),
        { role: 'user', content: message.prompt },
      ];
    const budget = Math.min(message.maxTurns ?? limits.maxTurns, total - turns.length);
    if (budget <= 0) {
      stopReason = 'max-turns';
      break;
    }
    const end = await answerMessage(parts, turns, {
      messages,
      maxTurns: budget,
      userTurn: u,
      // a later message's expectations, with the catalog the strategy presents (a persona's candidates) kept
      ...(u > 0 ? { oracle: oracleOf(testCase, u, oracle?.catalog) } : {}),
    });
    ({ finalText, stopReason, messages } = end);
    if (stopReason !== 'answered') break;
  }
  return { turns, finalText, stopReason };
}
