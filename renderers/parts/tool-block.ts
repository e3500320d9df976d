import { formatCall, type TextProtocol } from './call-protocol.js';
import { parameterLines } from './schema-describe.js';
import { exampleArguments } from './schema-example.js';
import type { NamedTool } from './tool-names.js';

/** One tool, as case study 000's fix printed it: description, every parameter with type and required/optional. */
export function toolBlock({ name, tool }: NamedTool, protocol: TextProtocol, examples: boolean): string {
  const lines = [`## ${name}`];
  const description = tool.description?.trim() || tool.title?.trim();
  if (description) lines.push(`Description: ${description}`);
  const params = parameterLines(tool.inputSchema);
  lines.push(params.length > 0 ? 'Parameters:' : 'Parameters: none', ...params);
  lines.push(`Source: ${tool.server}`);
  if (examples) lines.push(`Example: ${formatCall(protocol, name, exampleArguments(tool.inputSchema))}`);
  return lines.join('\n');
}
