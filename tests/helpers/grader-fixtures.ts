import type { Protocol } from '../../src/contracts/model.js';
import type { SuiteCase } from '../../src/contracts/suite.js';
import type { ToolDef } from '../../src/contracts/tool.js';
import type { ToolExecution, Transcript, Turn } from '../../src/contracts/transcript.js';
import { parseResponse } from '../../src/parse/index.js';

/** Test helpers: hand-built transcripts whose parse comes from the real parser. */
export interface ReplySpec {
  text: string;
  toolCalls?: Array<{ id: string; name: string; arguments: string | Record<string, unknown> }>;
  executed?: Array<Partial<ToolExecution> & { name: string; args: unknown; result: string }>;
}

/**
 * A transcript of `replies`, each parsed as a live reply to a request in `protocol` that offered `tools` (the parse
 * context: tool-named XML, text values converted by schema). Without tools the replies parse as for a reply graded
 * without a suite.
 */
export function transcriptOf(
  replies: ReplySpec[],
  protocol: Protocol = 'xml-tags',
  tools: readonly ToolDef[] = [],
): Transcript {
  const context = { tools };
  const turns: Turn[] = replies.map((r, index) => {
    const response = {
      text: r.text,
      toolCalls: r.toolCalls ?? [],
      finishReason: 'stop',
      latencyMs: 0,
      raw: { request: null, response: null },
    };
    return {
      index,
      request: {
        system: '',
        messages: [],
        protocol,
        meta: { caseId: 'c', repeat: 0, seed: 0, renderer: 'full-details', turn: index },
      },
      response,
      parse: parseResponse(response, protocol, context),
      executed: (r.executed ?? []).map((e, i) => ({
        callId: `call_${index}_${i}`,
        server: 'excel',
        tool: e.name,
        isError: false,
        durationMs: 0,
        ...e,
      })),
    };
  });
  const last = replies[replies.length - 1];
  return { turns, finalText: last?.text ?? '', stopReason: 'answered' };
}

export function caseOf(expect: SuiteCase['expect'], id = 'case'): SuiteCase {
  return { id, prompt: 'p', expect };
}

export const excelTools: ToolDef[] = [
  {
    name: 'read_data_from_excel',
    server: 'excel',
    description: 'Read data from Excel worksheet with cell metadata including validation rules',
    inputSchema: {
      type: 'object',
      properties: {
        filepath: { type: 'string' },
        sheet_name: { type: 'string' },
        start_cell: { type: 'string' },
        end_cell: { type: 'string' },
        preview_only: { type: 'boolean' },
      },
      required: ['filepath', 'sheet_name'],
    },
  },
  {
    name: 'write_data_to_excel',
    server: 'excel',
    inputSchema: {
      type: 'object',
      properties: {
        filepath: { type: 'string' },
        sheet_name: { type: 'string' },
        data: { type: 'array', items: { type: 'array' } },
        start_cell: { type: 'string' },
      },
      required: ['filepath', 'sheet_name', 'data'],
    },
  },
];
