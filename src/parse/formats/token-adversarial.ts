/** About 1 MB of `fragment` repeated. */
function mb(fragment: string): string {
  return fragment.repeat(Math.ceil(1_000_000 / fragment.length));
}

/** Hostile replies of about 1 MB built from the token formats' own tokens, for the robustness test and the parser bench. */
export const TOKEN_ADVERSARIAL: ReadonlyArray<readonly [name: string, text: string]> = [
  ['mistral: [TOOL_CALLS] with no call', mb('[TOOL_CALLS]')],
  ['mistral: named calls with unclosed arguments', mb('[TOOL_CALLS]f[CALL_ID]abc[ARGS]{"a": "')],
  ['mistral: one call list nested 1 MB deep', `[TOOL_CALLS]${mb('[{')}`],
  ['llama: thousands of complete JSON calls', `<|python_tag|>${mb('{"name": "f", "parameters": {"a": 1}}; ')}`],
  ['llama: unclosed python lists', mb('<|python_start|>[f(a=[')],
  [
    'kimi: calls with unclosed arguments and no ends',
    mb('<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": ['),
  ],
  ['kimi: call tokens with no id', mb('<|tool_calls_section_begin|><|tool_call_begin|>')],
  [
    'harmony: call messages with unclosed arguments',
    mb('<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": "'),
  ],
  ['harmony: headers with no message', mb('<|start|>assistant<|channel|>commentary to=functions.f ')],
  ['harmony: analysis messages', mb('<|channel|>analysis<|message|>{"name": "f", "arguments": {}}<|end|>')],
  ['granite: unclosed call lists', mb('<|tool_call|>[{"name": "f", "arguments": {"a": ')],
  ['gemma: calls with unclosed strings', mb('<|tool_call>call:f{a:<|"|>')],
  ['gemma: one call nested 1 MB deep', `<|tool_call>call:f{${mb('a:{')}`],
  ['gemma: thought channels never closed', mb('<|channel>thought\n<|tool_call>call:f{x:1}')],
  ['phi: unclosed functools lists', mb('functools[{"name": "f", "arguments": {"a": [')],
  ['internlm: unclosed plugin calls', mb('<|action_start|><|plugin|>{"name": "f", "parameters": {')],
  ['functionary: v3 headers with unclosed JSON', mb('>>>f\n{"a": "\n')],
  ['functionary: v2 recipients with unclosed content', mb('<|recipient|>f\n<|content|>{"a": [')],
  ['command-r: unclosed actions', mb('<|START_ACTION|>[{"tool_name": "f", "parameters": {"a": ')],
  ['command-r: thinking never closed', mb('<|START_THINKING|><|START_ACTION|>[]')],
  ['apertus: unclosed name-keyed lists', mb('<|tools_prefix|>[{"f": {"a": [')],
  ['apertus: prefixes with no list', mb('<|tools_prefix|><|tools_suffix|>')],
  ['apertus: reasoning never closed', mb('<|inner_prefix|><|tools_prefix|>[{"f": {}}]')],
  ['lfm2: unclosed python lists', mb('<|tool_call_start|>[f(a=[')],
  ['lfm2: start tokens before end tokens', mb('<|tool_call_start|>f(a=1)<|tool_call_end|')],
  [
    'kimi K3: calls with unclosed arguments',
    mb('<|open|>call tool="f"<|sep|><|open|>argument key="a" type="integer"<|sep|>1'),
  ],
  ['kimi K3: call keywords whose attributes never end', mb('<|open|>call tool="f" ')],
  ['kimi K3: think channels never closed', mb('<|open|>think<|sep|><|open|>call tool="f"<|sep|>')],
  ['solar: calls with unclosed arguments', mb('<|tool_call:begin|>0<|tool_call:name|>f<|tool_call:args|>{"a": [')],
  ['solar: begin tokens with no name', mb('<|tool_calls|><|tool_call:begin|>')],
  ['solar: reasoning never closed', mb('<|think|><|tool_call:begin|>0<|tool_call:name|>f')],
  [
    'gigachat: function-call roles with unclosed JSON',
    mb('function call<|role_sep|>\n{"name": "f", "arguments": {"a": '),
  ],
];
