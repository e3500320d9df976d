/**
 * How a call was found in a reply. `native` = the API's tool-call field; the rest are text shapes.
 * `function-tags` (`<function=name>…</function>`, OpenHands / Qwen3-Coder / Llama 3.1) is detected, never asked for.
 */
export type CallVia =
  | 'native'
  | 'xml-tags'
  | 'function-tags'
  | 'json'
  | 'fenced'
  | 'inline-code'
  | 'bare-json'
  | 'python-call';

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
  inner?: Exclude<CallVia, 'fenced' | 'inline-code' | 'native'>;
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
