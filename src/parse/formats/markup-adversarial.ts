/** About 1 MB of `unit` repeated. */
function mb(unit: string): string {
  return unit.repeat(Math.ceil(1_000_000 / unit.length));
}

/** About 1 MB of open tags, each with a name of its own (a name cache must not make each one cost more). */
function distinctTags(): string {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < 1_000_000; i++) {
    const tag = `<read_file_${i.toString(36)}>`;
    parts.push(tag);
    size += tag.length;
  }
  return parts.join('');
}

/**
 * Hostile replies of about 1 MB built from the markup formats' own tokens, for the robustness test and the parser
 * bench: unclosed blocks, thousands of open tags, parameters without values, values that never close. (Tool-named XML
 * is read only for offered tools; its input names the tools the bench offers, `read_file` and `write_to_file`.)
 */
export const MARKUP_ADVERSARIAL: ReadonlyArray<readonly [name: string, text: string]> = [
  ['DeepSeek: unclosed calls with cut JSON', mb('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": [')],
  ['DeepSeek: call tokens with no name or separator', mb('<｜tool▁call▁begin｜><｜tool▁sep｜>')],
  ['DeepSeek: token openers that never close', mb('<｜tool▁call<|tool▁')],
  ['DeepSeek: block openers before openers that are no tokens', mb('<｜tool▁calls▁begin｜><｜x｜>')],
  ['DeepSeek: V3 fences never closed', mb('<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{"a": "')],
  [
    'DeepSeek DSML: invokes with unclosed JSON parameters',
    mb('<｜DSML｜function_calls><｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="false">[{'),
  ],
  ['GLM: arg values that never close', mb('<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>')],
  ['GLM: keys without values', `<tool_call>f${'<arg_key>k</arg_key>'.repeat(52_000)}`],
  ['OLMo: cut python calls', mb('<function_calls>\nf(a=[1, "')],
  ['OLMo: one block of many call lines', `<function_calls>\n${'f(a=true, b=null)\n'.repeat(55_000)}`],
  ['invoke XML: parameters without values', mb('<function_calls><invoke name="f"><parameter name="a">')],
  ['invoke XML: invoke keywords without tags', mb('invoke name="f" ')],
  ['invoke XML: open tags that never end', mb('<invoke name="f" ')],
  [
    'invoke XML: blocks of invoke keywords that are not tags',
    `${mb('<function_calls> invoke name= ')}<invoke name="f">`,
  ],
  ['invoke XML: namespaced invokes never closed', mb('<ns:invoke name="f"><ns:parameter name="p">x')],
  ['tool-named XML: thousands of open tags', mb('<read_file><path><content>')],
  ['tool-named XML: a different tag name each time', distinctTags()],
  ['tool-named XML: values that never close', mb('<write_to_file>\n<path>a</path>\n<content>x </content y')],
  ['MiniCPM: functions with unclosed CDATA params', mb('<function name="f"><param name="a"><![CDATA[x')],
  ['MiniCPM: function keywords that are not tags', mb('function name="f" <param name="a">')],
  ['MiniMax M2: blocks of invokes never closed', mb('<minimax:tool_call><invoke name="f"><parameter name="a">1')],
  [
    'MiniMax M3: namespace tokens before unclosed elements',
    mb(']<]minimax[>[<tool_call>]<]minimax[>[<invoke name="f">]<]minimax[>[<a>]<]minimax[>[<b>'),
  ],
  ['MiniMax M3: namespace tokens alone', mb(']<]minimax[>[')],
  ['invoke XML: child elements nested and never closed', mb('<function_calls><invoke name="f"><a><item><b>')],
  ['invoke XML: JSON bodies never closed', mb('<invoke name="f">{"a": [{"b": "')],
  ['Hunyuan: separators without arguments', mb('<tool_call>f<tool_sep><arg_key>a</arg_key><arg_value>')],
  [
    'K2 Horizon: typed values never closed',
    mb('<ifm|tool_call>f<ifm|arg_key>a</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>1'),
  ],
  ['K2 Horizon: JSON bodies never closed', mb('<ifm|tool_call>{"name": "f", "arguments": {"a": ')],
  ['name-json: name lines before unclosed JSON', mb('<tool_call>f\n{"a": "')],
  ['reasoning: Seed and Glimmer markers never closed', mb('<seed:think><|start|>assistant to=self<|message|>')],
  [
    'GigaChat GCML: invokes with unclosed JSON parameters',
    mb('<｜GCML｜tool_calls><｜GCML｜invoke name="f"><｜GCML｜parameter name="a" string="false">{"'),
  ],
  ['Hunyuan: suffixed tokens never closed', mb('<tool_call:opensource>f<tool_sep:opensource><arg_key:opensource>a')],
];
