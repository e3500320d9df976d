import type { JSONSchema } from './json-schema.js';

/**
 * How a call was found in a reply. `native` = the API's tool-call field; the rest are text shapes. The protocols a
 * renderer can ask for are `native`, `xml-tags`, `json`, `python-call` and `tool-named-xml`; every other shape is
 * detected, never asked for, so a call found in it fails `parseable` while `correct-arguments` and `no-call` still
 * judge it.
 */
export type CallVia = 'native' | 'fenced' | 'inline-code' | TextShape;

/** The shapes a call can have in text (also the shape inside a fence or inline code, `inner`). */
export type TextShape = 'xml-tags' | 'json' | 'bare-json' | 'python-call' | ModelFormat;

/**
 * Model families' own chat-template formats, written as text when no server-side tool parser turned them into native
 * calls (docs/validity.md has an example of each).
 */
export type ModelFormat =
  /** `<function=name>…</function>`: OpenHands, Qwen3-Coder `<parameter=…>` bodies, Llama 3.1 and functionary v3.1 JSON bodies. */
  | 'function-tags'
  /** `[TOOL_CALLS][{…}]` and `[TOOL_CALLS]name[ARGS]{…}`. */
  | 'mistral'
  /** Llama 3.x `<|python_tag|>`, Llama 4 `<|python_start|>…<|python_end|>`. */
  | 'llama'
  /** DeepSeek V3/R1 and V3.1 `<｜tool▁calls▁begin｜>`, V3.2 / V4 DSML markup. */
  | 'deepseek'
  /**
   * `<tool_call>name<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`: GLM-4.5/4.6/4.7 and the families that
   * write the same grammar (Hunyuan with `<tool_sep>` after the name, K2 Horizon's `<ifm|…>` tags with typed values).
   */
  | 'glm'
  /**
   * Kimi K2 `<|tool_calls_section_begin|>…functions.name:0<|tool_call_argument_begin|>{…}`, and Kimi K3's XTML
   * `<|open|>call tool="name"<|sep|><|open|>argument key="k" type="…"<|sep|>v<|close|>argument<|sep|>…`.
   */
  | 'kimi'
  /** gpt-oss harmony `<|channel|>commentary to=functions.name … <|message|>{…}<|call|>`. */
  | 'harmony'
  /** Granite `<|tool_call|>[…]`. */
  | 'granite'
  /** Gemma 4's call tokens (Gemma 3's ```` ```tool_code ```` is a fence holding a python call). */
  | 'gemma'
  /** Phi-4-mini `functools[…]`. */
  | 'phi'
  /** OLMo 3 `<function_calls>` holding python calls. */
  | 'olmo'
  /** InternLM `<|action_start|><|plugin|>{…}<|action_end|>`. */
  | 'internlm'
  /** xLAM `{"tool_calls": [{"name", "arguments"}]}`. */
  | 'xlam'
  /** functionary v2 `<|recipient|>name<|content|>{…}` and v3 `>>>name\n{…}`. */
  | 'functionary'
  /** Command R7B / Command A `<|START_ACTION|>[…]<|END_ACTION|>`. */
  | 'command-r'
  /** Anthropic-style `<function_calls><invoke name="…"><parameter name="…">…</parameter></invoke></function_calls>` text. */
  | 'invoke-xml'
  /** Tool-named XML as Cline and Roo Code ask for it (`<read_file><path>…</path></read_file>`), offered tools only. */
  | 'tool-named-xml'
  /** An OpenAI-shaped object echoed as text: `{"tool_calls": [{"function": {"name", "arguments"}}]}`. */
  | 'openai-json'
  /** Apertus `<|tools_prefix|>[{"name": {args}}]<|tools_suffix|>`: each call an object keyed by the tool's name. */
  | 'apertus'
  /** Liquid LFM2 `<|tool_call_start|>[name(a=1)]<|tool_call_end|>` (python calls, or a JSON list). */
  | 'lfm2'
  /** MiniCPM `<function name="…"><param name="…">v</param></function>` (CDATA values allowed). */
  | 'minicpm'
  /**
   * MiniMax M2 `<minimax:tool_call><invoke name="…"><parameter name="…">…` and M3's namespaced tags whose parameters
   * are child elements named after the parameter.
   */
  | 'minimax'
  /** A tool name on its own line, then a JSON object of arguments, inside a call tag or fence. */
  | 'name-json'
  /** Solar Open `<|tool_call:begin|>id<|tool_call:name|>name<|tool_call:args|>{…}<|tool_call:end|>`. */
  | 'solar'
  /** GigaChat 3 `function call<|role_sep|>{…}`, GigaChat 3.5's GCML invoke markup. */
  | 'gigachat';

/** A tool the request offered, as the parser needs it: its name, and its schema for converting text values. */
export interface ParseTool {
  name: string;
  inputSchema?: JSONSchema;
}

/**
 * What the parser may know of the request. Without tools, formats that name tools by their tag (Cline-style XML)
 * are not recognised, and text argument values stay text unless the whole value is a JSON literal.
 */
export interface ParseContext {
  tools?: readonly ParseTool[];
}

export interface ParsedCall {
  name: string;
  /** Parsed arguments (an object for well-formed calls). */
  args: unknown;
  /** The argument text as the model wrote it. */
  rawArgs: string;
  via: CallVia;
  /** For `fenced`/`inline-code`: the fence's info string (`tool_call`, `json`, `xml`, `python`, `` for a bare fence). */
  fence?: string;
  /** The shape inside the fence (e.g. a `<tool_call>` inside ```` ```xml ````). */
  inner?: TextShape;
  /**
   * Arguments only parsed after repair: jsonrepair for JSON, or (python-call) the brackets and quotes a cut-off
   * reply left open closed.
   */
  repaired: boolean;
  /** The call's closing tag/bracket was missing or cut short. */
  truncated?: boolean;
  /** Native call id, or the `id` field a text call carried. */
  id?: string;
  span?: [number, number];
}

export interface Diagnostic {
  code:
    | 'call-in-think'
    | 'quoted-example'
    | 'multiple-calls'
    | 'wrong-shape'
    | 'unparseable-arguments'
    | 'repaired'
    | 'truncated'
    | 'double-encoded'
    | 'other';
  message: string;
  span?: [number, number];
}

export interface ParseResult {
  /** Every call found, in reply order, whatever its shape. */
  calls: ParsedCall[];
  diagnostics: Diagnostic[];
}
