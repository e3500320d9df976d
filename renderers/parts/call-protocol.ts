/** The text protocols: how a model writes a call inside its reply (see the shared call/feedback conventions). */
export type TextProtocol = 'xml-tags' | 'json' | 'python-call' | 'tool-named-xml';

export const TEXT_PROTOCOLS: readonly TextProtocol[] = ['xml-tags', 'json', 'python-call', 'tool-named-xml'];

/** A call written in the protocol's syntax, exactly as the runner's parser expects it. */
export function formatCall(protocol: TextProtocol, name: string, args: Record<string, unknown>): string {
  switch (protocol) {
    case 'xml-tags':
      return `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
    case 'json':
      return JSON.stringify({ name, arguments: args });
    case 'python-call':
      return `[${pythonCall(name, args)}]`;
    case 'tool-named-xml':
      return toolNamedXml(name, args);
  }
}

/**
 * `<name>\n<param>value</param>\n</name>`: the tool's element holding one element per parameter; a string value as
 * written, any other as JSON (the tool's schema tells the parser how to read it back).
 */
export function toolNamedXml(name: string, args: Record<string, unknown>): string {
  const params = Object.entries(args).map(([k, v]) => `<${k}>${typeof v === 'string' ? v : JSON.stringify(v)}</${k}>`);
  return [`<${name}>`, ...params, `</${name}>`].join('\n');
}

/** `func(x=1, y="s", z=True)`: keyword arguments as Python literals (BFCL prompt mode). */
export function pythonCall(name: string, args: Record<string, unknown>): string {
  const kwargs = Object.entries(args).map(([k, v]) => `${k}=${pythonLiteral(v)}`);
  return `${name}(${kwargs.join(', ')})`;
}

function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`);
    return `{${entries.join(', ')}}`;
  }
  return JSON.stringify(String(value));
}

const GENERIC_ARGS = { parameter_name: 'value' };

/** The rule case study 001 added after the model wrapped its call in a ```` ```tool_call ```` fence. */
function noFencesRule(protocol: TextProtocol): string {
  switch (protocol) {
    case 'xml-tags':
      return '**CRITICAL:** Do NOT wrap the tool call in markdown code blocks (``` or ```tool_call). Output the <tool_call> tags directly!';
    case 'json':
      return '**CRITICAL:** Do NOT wrap the JSON in markdown code blocks (``` or ```json). Output the JSON object directly!';
    case 'python-call':
      return '**CRITICAL:** Do NOT wrap the call list in markdown code blocks (``` or ```python). Output the list directly!';
    case 'tool-named-xml':
      return '**CRITICAL:** Do NOT wrap the tool element in markdown code blocks (``` or ```xml). Output the XML directly!';
  }
}

const RESULTS_LINE =
  'Tool results come back in the next user message, one <tool_result name="tool_name">…</tool_result> block per call ' +
  '(with error="true" when the tool failed). Use them to answer the user.';

/** The first line of each protocol's section: what tells a reader of the prompt alone which protocol it asks for. */
const INTRO: Readonly<Record<TextProtocol, string>> = {
  'xml-tags':
    'When you need a tool, write a <tool_call> tag holding a JSON object with the tool "name" and its "arguments":',
  json: 'When you need a tool, reply with only a JSON object with the tool "name" and its "arguments", and no other text:',
  'python-call': 'When you need a tool, reply with only a list of function calls in this format, and no other text:',
  'tool-named-xml':
    'When you need a tool, write an XML element named after the tool, holding one element per parameter with its value:',
};

/**
 * The text protocol a system prompt asks for, read from the section {@link protocolSection} wrote into it (the
 * earliest, should there be several), or undefined for a prompt without one. For a server that sees only the prompt
 * (the `serve llm` wire mock): a wire request does not carry the protocol the renderer chose.
 */
export function protocolOfPrompt(system: string): TextProtocol | undefined {
  let found: TextProtocol | undefined;
  let at = Number.POSITIVE_INFINITY;
  for (const protocol of TEXT_PROTOCOLS) {
    const i = system.indexOf(INTRO[protocol]);
    if (i >= 0 && i < at) {
      found = protocol;
      at = i;
    }
  }
  return found;
}

/**
 * The "how to call a tool" section of a text-protocol prompt, with one generic example of the syntax. It names no
 * real tool or parameter, so it can also go into the names-only prompt and stays byte-stable for caching.
 */
export function protocolSection(protocol: TextProtocol, options: { noFences?: boolean } = {}): string {
  const example = formatCall(protocol, 'tool_name', GENERIC_ARGS);
  const lines: string[] = ['# Tool calling', '', INTRO[protocol]];
  switch (protocol) {
    case 'xml-tags':
      lines.push('', example, '', '- To call several tools, write one <tool_call> tag per call.');
      break;
    case 'json':
      lines.push('', example, '', '- To call several tools at once, reply with a JSON array of such objects.');
      break;
    case 'python-call':
      lines.push(
        '',
        `[func_name1(params_name1=params_value1, params_name2=params_value2), func_name2(params)]`,
        '',
        `For example: ${example}`,
        '- Write strings in double quotes and booleans as True/False.',
      );
      break;
    case 'tool-named-xml':
      lines.push(
        '',
        example,
        '',
        '- Write a value as plain text; a list or an object as JSON.',
        '- Leave out an optional parameter rather than writing an empty element.',
      );
      break;
  }
  lines.push(
    `- ${RESULTS_LINE}`,
    '- When no tool is needed, or once you have what you need, answer in plain text without any call.',
  );
  if (options.noFences) lines.push('', noFencesRule(protocol));
  return lines.join('\n');
}
