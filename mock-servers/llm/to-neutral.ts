import type { Message, NativeCall } from '../../src/contracts/model.js';
import type { LlmApi, NeutralRequest, NeutralTool } from './types.js';

type Json = Record<string, unknown>;

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asString = (v: unknown): string => (typeof v === 'string' ? v : '');
const asObject = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** Text of a content that is a string or a list of `{type: 'text', text}` parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => asObject(part))
    .filter((part) => part.type === 'text')
    .map((part) => asString(part.text))
    .join('');
}

function stopList(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return asArray(v).filter((s): s is string => typeof s === 'string');
}

function fromOpenAI(body: Json): NeutralRequest {
  const system: string[] = [];
  const messages: Message[] = [];
  const names = new Map<string, string>();
  for (const raw of asArray(body.messages)) {
    const m = asObject(raw);
    if (m.role === 'system' || m.role === 'developer') system.push(textOf(m.content));
    else if (m.role === 'user') messages.push({ role: 'user', content: textOf(m.content) });
    else if (m.role === 'assistant') {
      const toolCalls: NativeCall[] = asArray(m.tool_calls).map((c) => {
        const call = asObject(c);
        const fn = asObject(call.function);
        names.set(asString(call.id), asString(fn.name));
        return { id: asString(call.id), name: asString(fn.name), arguments: asString(fn.arguments) };
      });
      messages.push({ role: 'assistant', content: textOf(m.content), ...(toolCalls.length ? { toolCalls } : {}) });
    } else if (m.role === 'tool') {
      const id = asString(m.tool_call_id);
      messages.push({ role: 'tool', toolCallId: id, name: names.get(id) ?? '', content: textOf(m.content) });
    }
  }
  const tools: NeutralTool[] = asArray(body.tools).map((t) => {
    const fn = asObject(asObject(t).function);
    return { name: asString(fn.name), description: asString(fn.description), parameters: asObject(fn.parameters) };
  });
  return {
    api: 'openai',
    model: asString(body.model),
    system: system.join('\n'),
    messages,
    tools,
    stream: body.stream === true,
    stop: stopList(body.stop),
  };
}

/** Text of a Responses message content: a string or a list of `input_text` / `output_text` parts. */
function responsesText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => asObject(part))
    .filter((part) => part.type === 'input_text' || part.type === 'output_text' || part.type === 'text')
    .map((part) => asString(part.text))
    .join('');
}

/**
 * A Responses API body: `instructions` (and system/developer input messages) → system; input items → messages.
 * A `function_call` item joins the assistant turn right before it (or starts one), so an assistant's text and its
 * calls are one contract message; a `function_call_output` is a tool result named after its call.
 */
function fromOpenAIResponses(body: Json): NeutralRequest {
  const system: string[] = [];
  if (typeof body.instructions === 'string' && body.instructions) system.push(body.instructions);
  const messages: Message[] = [];
  const names = new Map<string, string>();
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : asArray(body.input);
  for (const raw of input) {
    const item = asObject(raw);
    if (item.type === 'function_call') {
      const call: NativeCall = {
        id: asString(item.call_id),
        name: asString(item.name),
        arguments: asString(item.arguments),
      };
      names.set(call.id, call.name);
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    } else if (item.type === 'function_call_output') {
      const id = asString(item.call_id);
      const output = typeof item.output === 'string' ? item.output : responsesText(item.output);
      messages.push({ role: 'tool', toolCallId: id, name: names.get(id) ?? '', content: output });
    } else if (item.type === undefined || item.type === 'message') {
      if (item.role === 'system' || item.role === 'developer') system.push(responsesText(item.content));
      else if (item.role === 'user') messages.push({ role: 'user', content: responsesText(item.content) });
      else if (item.role === 'assistant') messages.push({ role: 'assistant', content: responsesText(item.content) });
    }
  }
  const tools: NeutralTool[] = asArray(body.tools)
    .map(asObject)
    .filter((t) => t.type === 'function')
    .map((t) => ({ name: asString(t.name), description: asString(t.description), parameters: asObject(t.parameters) }));
  return {
    api: 'openai-responses',
    model: asString(body.model),
    system: system.join('\n'),
    messages,
    tools,
    stream: body.stream === true,
    // The Responses API has no stop sequences.
    stop: [],
  };
}

function fromAnthropic(body: Json): NeutralRequest {
  const messages: Message[] = [];
  const names = new Map<string, string>();
  for (const raw of asArray(body.messages)) {
    const m = asObject(raw);
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : asArray(m.content);
    if (m.role === 'assistant') {
      const toolCalls: NativeCall[] = [];
      let text = '';
      for (const b of blocks.map(asObject)) {
        if (b.type === 'text') text += asString(b.text);
        if (b.type === 'tool_use') {
          names.set(asString(b.id), asString(b.name));
          toolCalls.push({ id: asString(b.id), name: asString(b.name), arguments: asObject(b.input) });
        }
      }
      messages.push({ role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) });
      continue;
    }
    let text = '';
    for (const b of blocks.map(asObject)) {
      if (b.type === 'text') text += asString(b.text);
      if (b.type === 'tool_result') {
        const id = asString(b.tool_use_id);
        messages.push({
          role: 'tool',
          toolCallId: id,
          name: names.get(id) ?? '',
          content: textOf(b.content),
          ...(b.is_error === true ? { isError: true } : {}),
        });
      }
    }
    if (text) messages.push({ role: 'user', content: text });
  }
  const tools: NeutralTool[] = asArray(body.tools).map((raw) => {
    const t = asObject(raw);
    return { name: asString(t.name), description: asString(t.description), parameters: asObject(t.input_schema) };
  });
  return {
    api: 'anthropic',
    model: asString(body.model),
    system: textOf(body.system),
    messages,
    tools,
    stream: body.stream === true,
    stop: stopList(body.stop_sequences),
  };
}

function fromOllama(body: Json): NeutralRequest {
  const system: string[] = [];
  const messages: Message[] = [];
  let callCount = 0;
  for (const raw of asArray(body.messages)) {
    const m = asObject(raw);
    if (m.role === 'system') system.push(asString(m.content));
    else if (m.role === 'user') messages.push({ role: 'user', content: asString(m.content) });
    else if (m.role === 'assistant') {
      const toolCalls: NativeCall[] = asArray(m.tool_calls).map((c) => {
        const fn = asObject(asObject(c).function);
        return { id: `ollama-${callCount++}`, name: asString(fn.name), arguments: asObject(fn.arguments) };
      });
      messages.push({ role: 'assistant', content: asString(m.content), ...(toolCalls.length ? { toolCalls } : {}) });
    } else if (m.role === 'tool') {
      messages.push({ role: 'tool', toolCallId: '', name: asString(m.tool_name), content: asString(m.content) });
    }
  }
  const tools: NeutralTool[] = asArray(body.tools).map((t) => {
    const fn = asObject(asObject(t).function);
    return { name: asString(fn.name), description: asString(fn.description), parameters: asObject(fn.parameters) };
  });
  return {
    api: 'ollama',
    model: asString(body.model),
    system: system.join('\n'),
    messages,
    tools,
    // Real Ollama streams when `stream` is absent; ollama-js always sends it.
    stream: body.stream !== false,
    stop: stopList(asObject(body.options).stop),
  };
}

/** A wire body of the given API → the neutral view a Responder gets. Tolerant: missing fields become empty. */
export function toNeutral(api: LlmApi, body: unknown): NeutralRequest {
  const b = asObject(body);
  switch (api) {
    case 'openai':
      return fromOpenAI(b);
    case 'openai-responses':
      return fromOpenAIResponses(b);
    case 'anthropic':
      return fromAnthropic(b);
    case 'ollama':
      return fromOllama(b);
  }
}
