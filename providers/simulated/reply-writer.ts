import type { ModelRequest, ModelResponse, NativeCall, Protocol } from '../../src/contracts/index.js';
import type { SimCall, SimReply } from './types.js';

export type FenceKind = 'tool_call' | 'json' | 'xml' | 'python';

export interface WriteOptions {
  /** Wrap the calls in a markdown code fence of this kind (text protocols only). */
  fence?: FenceKind;
  /** Break the call's JSON (or Python) syntax, as a model cut short would. */
  malformed?: boolean;
  /** Prose before the calls. */
  preamble?: string;
  /** Prose after the calls (e.g. a dangling "waiting for the result" line). */
  trailer?: string;
  /** Native call ids continue from here (`call_<offset+1>`…). */
  idOffset?: number;
}

/** The fence kinds a model plausibly uses for each text protocol. */
export function fenceKindsFor(protocol: Protocol): FenceKind[] {
  switch (protocol) {
    case 'xml-tags':
      return ['tool_call', 'json', 'xml'];
    case 'json':
      return ['json', 'tool_call'];
    case 'python-call':
      return ['python', 'tool_call'];
    case 'tool-named-xml':
      return ['xml'];
    case 'native':
      return [];
  }
}

/** A JSON value as a Python literal (True/False/None, dicts, lists); strings use JSON escaping, valid in Python. */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`,
    );
    return `{${entries.join(', ')}}`;
  }
  return JSON.stringify(String(value));
}

/** Cline-style: the tool's element holding one element per parameter (a string as written, anything else as JSON). */
function toolNamedXml(call: SimCall): string {
  const params = Object.entries(call.args).map(
    ([k, v]) => `<${k}>${typeof v === 'string' ? v : JSON.stringify(v)}</${k}>`,
  );
  return [`<${call.name}>`, ...params, `</${call.name}>`].join('\n');
}

function jsonCall(call: SimCall): string {
  return `{"name": ${JSON.stringify(call.name)}, "arguments": ${JSON.stringify(call.args)}}`;
}

function pythonCall(call: SimCall): string {
  const kwargs = Object.entries(call.args).map(([k, v]) => `${k}=${pythonLiteral(v)}`);
  return `${call.name}(${kwargs.join(', ')})`;
}

/** Case study 001: the call as the model wrote it inside a ```tool_call fence. */
function caseStudyCall(call: SimCall, index: number): string {
  const id = `call_${String(index + 1).padStart(3, '0')}`;
  return JSON.stringify({ id, tool_name: call.name, arguments: call.args }, null, 2);
}

function breakSyntax(text: string, protocol: Protocol): string {
  // Drop the last closing bracket: the shape of a reply cut short or a model losing count of braces.
  const closer = protocol === 'python-call' ? /[)\]]\s*$/ : /}\s*$/;
  return text.replace(closer, '');
}

function body(calls: SimCall[], protocol: Protocol, malformed: boolean): string {
  switch (protocol) {
    case 'xml-tags':
      return calls
        .map((c, i) => {
          const inner = jsonCall(c);
          return `<tool_call>${malformed && i === 0 ? breakSyntax(inner, protocol) : inner}</tool_call>`;
        })
        .join('\n');
    case 'json': {
      const text = calls.length === 1 && calls[0] ? jsonCall(calls[0]) : `[${calls.map(jsonCall).join(', ')}]`;
      return malformed ? breakSyntax(text, protocol) : text;
    }
    case 'python-call': {
      const text = `[${calls.map(pythonCall).join(', ')}]`;
      return malformed ? breakSyntax(text, protocol) : text;
    }
    case 'tool-named-xml':
      return calls
        .map((c, i) => {
          const text = toolNamedXml(c);
          // cut short before the tool's closing tag, as a reply that ran out would be
          return malformed && i === 0 ? text.slice(0, text.lastIndexOf('\n')) : text;
        })
        .join('\n\n');
    case 'native':
      return '';
  }
}

function fenced(calls: SimCall[], protocol: Protocol, fence: FenceKind, malformed: boolean): string {
  if (protocol === 'xml-tags' && fence === 'tool_call') {
    return calls.map((c, i) => `\`\`\`tool_call\n${caseStudyCall(c, i)}\n\`\`\``).join('\n\n');
  }
  const inner =
    protocol === 'xml-tags' && fence === 'json' ? body(calls, 'json', malformed) : body(calls, protocol, malformed);
  return `\`\`\`${fence}\n${inner}\n\`\`\``;
}

/** Writes calls in the request's protocol: text for text protocols, `toolCalls` for native. */
export function writeCalls(calls: SimCall[], protocol: Protocol, options: WriteOptions = {}): SimReply {
  const malformed = options.malformed === true;
  const prose = (core: string) => [options.preamble, core, options.trailer].filter((p) => p).join('\n\n');
  if (protocol === 'native') {
    const offset = options.idOffset ?? 0;
    const toolCalls: NativeCall[] = calls.map((c, i) => {
      const args = JSON.stringify(c.args);
      return { id: `call_${offset + i + 1}`, name: c.name, arguments: malformed && i === 0 ? args.slice(0, -1) : args };
    });
    return { text: prose(''), toolCalls };
  }
  const core = options.fence ? fenced(calls, protocol, options.fence, malformed) : body(calls, protocol, malformed);
  return { text: prose(core), toolCalls: [] };
}

/** Number of native calls already in the history, so new ids stay unique in the conversation. */
export function nativeCallsSoFar(request: ModelRequest): number {
  return request.messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0);
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/**
 * The JSON length of a request's tool list, by the list's identity: every turn and case of a strategy sends the same
 * list, and a catalog with distractors is a hundred tools. A WeakMap frees with the list; a length never changes.
 */
const toolsChars = new WeakMap<object, number>();

function inputChars(request: ModelRequest): number {
  const messages = request.messages.reduce((n, m) => n + m.content.length, 0);
  let tools = 0;
  if (request.tools) {
    const known = toolsChars.get(request.tools);
    tools = known ?? JSON.stringify(request.tools).length;
    if (known === undefined) toolsChars.set(request.tools, tools);
  }
  return request.system.length + messages + tools;
}

/** Cuts the text at the first stop sequence (excluded), as real APIs do. */
export function applyStop(text: string, stop: string[] | undefined): { text: string; stopped: boolean } {
  let cut = -1;
  for (const s of stop ?? []) {
    const at = s ? text.indexOf(s) : -1;
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  return cut < 0 ? { text, stopped: false } : { text: text.slice(0, cut), stopped: true };
}

/** Wraps a persona's reply into a ModelResponse (usage estimated at 4 characters a token, latency 0). */
export function toResponse(
  request: ModelRequest,
  reply: SimReply,
  options: { honorStop?: boolean } = {},
): ModelResponse {
  const text = options.honorStop ? applyStop(reply.text, request.stop).text : reply.text;
  const outChars = text.length + reply.toolCalls.reduce((n, c) => n + c.name.length + String(c.arguments).length, 0);
  return {
    text,
    toolCalls: reply.toolCalls,
    finishReason: reply.toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage: { input: estimateTokens(inputChars(request)), output: estimateTokens(outChars) },
    latencyMs: 0,
    raw: {
      request: {
        caseId: request.meta.caseId,
        turn: request.meta.turn,
        repeat: request.meta.repeat,
        seed: request.meta.seed,
        protocol: request.protocol,
        messages: request.messages.length,
        tools: request.tools?.length ?? 0,
        systemChars: request.system.length,
      },
      response: { text, toolCalls: reply.toolCalls },
    },
  };
}
