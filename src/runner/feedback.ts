import type { Message, NativeCall, Protocol } from '../contracts/model.js';
import type { ToolExecution } from '../contracts/transcript.js';

/**
 * The messages that carry one turn's reply and its tool results back to the model, in the protocol's own
 * shape: native tool messages answering the API's call ids, or one user message of `<tool_result>` blocks
 * for text protocols (the shape case study 002's fix feeds back).
 */
export function feedbackMessages(
  protocol: Protocol,
  replyText: string,
  nativeCalls: NativeCall[],
  executed: ToolExecution[],
): Message[] {
  if (protocol === 'native') {
    return [
      { role: 'assistant', content: replyText, toolCalls: nativeCalls },
      ...executed.map(
        (x): Message => ({
          role: 'tool',
          toolCallId: x.callId,
          name: x.name,
          content: x.result,
          ...(x.isError ? { isError: true } : {}),
        }),
      ),
    ];
  }
  const blocks = executed.map(
    (x) => `<tool_result name="${escapeAttr(x.name)}"${x.isError ? ' error="true"' : ''}>\n${x.result}\n</tool_result>`,
  );
  return [
    { role: 'assistant', content: replyText },
    { role: 'user', content: blocks.join('\n') },
  ];
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Whether a message is the user speaking (a task or a follow-up), not tool results fed back in a text protocol's user
 * message. In a conversation, the user messages are counted by this to know which one is being answered.
 */
export function isUserPrompt(m: Message): boolean {
  return m.role === 'user' && !m.content.startsWith('<tool_result');
}
