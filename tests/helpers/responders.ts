import type { Responder } from '../../mock-servers/llm/index.js';

/**
 * A wire-mock model that calls get_workbook_metadata once (natively when the request offers tools, else in
 * `<tool_call>` text), then answers in words: two turns with the same system prompt and tools.
 */
export const callMetadataOnce: Responder = (request) => {
  const last = request.messages.at(-1);
  if (last?.role === 'tool' || last?.content.includes('<tool_result')) return { text: 'Done.' };
  const args = { filepath: 'sales.xlsx' };
  if (request.tools.length > 0) return { toolCalls: [{ name: 'get_workbook_metadata', arguments: args }] };
  return { text: `<tool_call>${JSON.stringify({ name: 'get_workbook_metadata', arguments: args })}</tool_call>` };
};
