import { describe, expect, it } from 'vitest';
import type { ParseTool } from '../../contracts/parse.js';
import { acceptedCalls, parseResponse } from '../index.js';

const CALLS = '<｜tool▁calls▁begin｜>';
const CALLS_END = '<｜tool▁calls▁end｜>';
const CALL = '<｜tool▁call▁begin｜>';
const SEP = '<｜tool▁sep｜>';
const END = '<｜tool▁call▁end｜>';

const TOOLS: ParseTool[] = [
  {
    name: 'get_forecast',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } },
  },
  {
    name: 'book_room',
    inputSchema: {
      type: 'object',
      properties: { room: { type: 'string' }, attendees: { type: 'array' }, remote: { type: 'boolean' } },
    },
  },
];

const parse = (text: string, tools: ParseTool[] = TOOLS) =>
  parseResponse({ text, toolCalls: [] }, 'xml-tags', { tools });
const summary = (text: string, tools?: ParseTool[]) =>
  parse(text, tools).calls.map((c) => ({ name: c.name, args: c.args, via: c.via, truncated: c.truncated === true }));
const attempts = (text: string) =>
  parse(text).diagnostics.filter((d) => d.code === 'wrong-shape' || d.code === 'unparseable-arguments');

/** V3 / R1: the type `function`, the name after the separator, the arguments in a ```json fence. */
const v3 = (name: string, json: string) => `${CALL}function${SEP}${name}\n\`\`\`json\n${json}\n\`\`\`${END}`;
/** V3.1: the name before the separator, the arguments right after it. */
const v31 = (name: string, json: string) => `${CALL}${name}${SEP}${json}${END}`;

describe('DeepSeek V3 / R1 tokens', () => {
  it('one call between prose: the fenced JSON is the call arguments, not a markdown-wrapped call', () => {
    const r = parse(
      `Let me look that up.\n${CALLS}${v3('get_forecast', '{"city": "Tromsø", "days": 3}')}${CALLS_END}\nBack soon.`,
    );
    expect(r.calls).toMatchObject([
      { name: 'get_forecast', args: { city: 'Tromsø', days: 3 }, via: 'deepseek', repaired: false },
    ]);
    expect(r.calls[0]?.fence).toBeUndefined();
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('several calls in one block, and two blocks', () => {
    const block = `${CALLS}${v3('get_forecast', '{"city": "Lagos"}')}\n${v3('book_room', '{"room": "B2", "remote": true}')}${CALLS_END}`;
    expect(summary(`${block}\nthen\n${CALLS}${v3('get_forecast', '{"city": "Accra"}')}${CALLS_END}`)).toEqual([
      { name: 'get_forecast', args: { city: 'Lagos' }, via: 'deepseek', truncated: false },
      { name: 'book_room', args: { room: 'B2', remote: true }, via: 'deepseek', truncated: false },
      { name: 'get_forecast', args: { city: 'Accra' }, via: 'deepseek', truncated: false },
    ]);
  });

  it('after an R1 <think> block the call counts; inside one it is a call-in-think diagnostic, not a call', () => {
    const call = `${CALLS}${v3('get_forecast', '{"city": "Porto"}')}${CALLS_END}`;
    expect(summary(`<think>The user wants the weather in Porto.</think>\n\n${call}`)).toEqual([
      { name: 'get_forecast', args: { city: 'Porto' }, via: 'deepseek', truncated: false },
    ]);
    const inside = parse(`<think>Maybe ${call} would do, but I know it already.</think>It is sunny in Porto.`);
    expect(inside.calls).toEqual([]);
    expect(inside.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a reply cut off inside the fence: the call is truncated and its JSON repaired', () => {
    const r = parse(`${CALLS}${CALL}function${SEP}book_room\n\`\`\`json\n{"room": "C4", "attendees": ["ana", "li`);
    expect(r.calls).toMatchObject([
      { name: 'book_room', args: { room: 'C4', attendees: ['ana', 'li'] }, truncated: true, repaired: true },
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['truncated', 'repaired']));
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });
});

describe('DeepSeek V3.1 tokens', () => {
  it('several calls with prose before and after', () => {
    const r = parse(
      `Two lookups:\n${CALLS}${v31('get_forecast', '{"city": "Hanoi", "days": 2}')}${v31('get_forecast', '{"city": "Hue"}')}${CALLS_END}\nDone.`,
    );
    expect(r.calls.map((c) => [c.name, c.args, c.via, c.repaired])).toEqual([
      ['get_forecast', { city: 'Hanoi', days: 2 }, 'deepseek', false],
      ['get_forecast', { city: 'Hue' }, 'deepseek', false],
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['multiple-calls']);
  });

  it('a call cut off before its end token is truncated; one cut before its separator is a malformed attempt', () => {
    expect(summary(`${CALLS}${CALL}get_forecast${SEP}{"city": "Da Nang"}`)).toEqual([
      { name: 'get_forecast', args: { city: 'Da Nang' }, via: 'deepseek', truncated: true },
    ]);
    const cut = parse(`${CALLS}${CALL}get_fore`);
    expect(cut.calls).toEqual([]);
    expect(cut.diagnostics.map((d) => d.code)).toEqual(['wrong-shape']);
    // a name followed by other markup: the attempt is the token and the name, the text after it stays the reply's
    const odd = parse(`${CALL}get_forecast<br> then {"name": "get_forecast", "arguments": {"city": "Oslo"}}`);
    expect(odd.diagnostics.find((d) => d.code === 'wrong-shape')?.span).toEqual([0, CALL.length + 12]);
    expect(odd.calls.map((c) => [c.name, c.via])).toEqual([['get_forecast', 'bare-json']]);
  });

  it('arguments that are not JSON are an unparseable attempt', () => {
    const r = parse(`${CALLS}${v31('get_forecast', 'city is Hanoi')}${CALLS_END}`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unparseable-arguments']);
  });

  it("the reference parsers' other spellings of the block opener, and ASCII bars with DeepSeek's ▁", () => {
    for (const opener of [
      '<｜tool_calls_begin｜>',
      '<｜tool calls begin｜>',
      '<｜tool\\_calls\\_begin｜>',
      '<｜tool▁calls｜>',
    ]) {
      expect(summary(`${opener}${v31('get_forecast', '{"city": "Kyoto"}')}${CALLS_END}`)).toHaveLength(1);
    }
    const ascii = '<|tool▁calls▁begin|><|tool▁call▁begin|>get_forecast<|tool▁sep|>{"city": "Nara"}<|tool▁call▁end|>';
    expect(summary(ascii)).toEqual([
      { name: 'get_forecast', args: { city: 'Nara' }, via: 'deepseek', truncated: false },
    ]);
    // ASCII bars with underscores are Kimi K2's tokens, never DeepSeek's
    const kimiLike = '<|tool_call_begin|>get_forecast<|tool_sep|>{"city": "Nara"}<|tool_call_end|>';
    expect(parse(kimiLike).calls.filter((c) => c.via === 'deepseek')).toEqual([]);
  });
});

describe('DeepSeek V3.2 DSML', () => {
  const dsml = (invokes: string, bar = '｜', block = 'function_calls') =>
    `<${bar}DSML${bar}${block}>\n${invokes}</${bar}DSML${bar}${block}>`;
  const invoke = (name: string, params: string, bar = '｜') =>
    `<${bar}DSML${bar}invoke name="${name}">\n${params}</${bar}DSML${bar}invoke>\n`;
  const param = (name: string, value: string, string: boolean, bar = '｜') =>
    `<${bar}DSML${bar}parameter name="${name}" string="${string}">${value}</${bar}DSML${bar}parameter>\n`;

  it('string="true" keeps the text, string="false" is JSON; several invokes; prose around', () => {
    const r = parse(
      `Booking now.\n${dsml(
        invoke('book_room', param('room', '204', true) + param('attendees', '["kai", "mo"]', false)) +
          invoke('get_forecast', param('city', 'Bergen', true) + param('days', '5', false)),
      )}\nAnything else?`,
    );
    expect(r.calls).toMatchObject([
      { name: 'book_room', args: { room: '204', attendees: ['kai', 'mo'] }, via: 'deepseek', repaired: false },
      { name: 'get_forecast', args: { city: 'Bergen', days: 5 }, via: 'deepseek', repaired: false },
    ]);
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });

  it('the string attribute decides over the schema; without it the schema converts', () => {
    // the model declared "5" a string: the grader, not the parser, says an integer was wanted
    expect(parse(dsml(invoke('get_forecast', param('days', '5', true)))).calls[0]?.args).toEqual({ days: '5' });
    const r = parse(dsml(invoke('get_forecast', '<｜DSML｜parameter name="days">4</｜DSML｜parameter>\n')));
    expect(r.calls[0]?.args).toEqual({ days: 4 });
  });

  it('V4 names the block tool_calls; the ASCII bar a proxy writes is read too', () => {
    expect(summary(dsml(invoke('get_forecast', param('city', 'Cork', true)), '｜', 'tool_calls'))).toHaveLength(1);
    expect(summary(dsml(invoke('get_forecast', param('city', 'Cork', true, '|'), '|'), '|'))).toEqual([
      { name: 'get_forecast', args: { city: 'Cork' }, via: 'deepseek', truncated: false },
    ]);
  });

  it('an invoke whose body is a JSON object instead of parameter tags (V4), with prose around', () => {
    const text = `Checking. ${dsml('<｜DSML｜invoke name="get_forecast">{"city": "Tromsø", "days": 2}</｜DSML｜invoke>\n', '｜', 'tool_calls')} Then I answer.`;
    expect(summary(text)).toEqual([
      { name: 'get_forecast', args: { city: 'Tromsø', days: 2 }, via: 'deepseek', truncated: false },
    ]);
  });

  it('after <think> a call; inside <think> a diagnostic; cut off mid-value a truncated call', () => {
    const call = dsml(invoke('get_forecast', param('city', 'Riga', true)));
    expect(summary(`<think>Riga, two days.</think>${call}`)).toHaveLength(1);
    const inside = parse(`<think>${call}</think>Riga is cold.`);
    expect(inside.calls).toEqual([]);
    expect(inside.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
    expect(
      summary(
        '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_forecast">\n<｜DSML｜parameter name="city" string="true">Vil',
      ),
    ).toEqual([{ name: 'get_forecast', args: { city: 'Vil' }, via: 'deepseek', truncated: true }]);
  });
});

describe('DeepSeek-style tokens around Step3 markup', () => {
  it('the tokens wrap a <steptml:invoke>, read as invoke markup with no broken DeepSeek call beside it', () => {
    const text = `${CALLS}${CALL}function${SEP}<steptml:invoke name="get_forecast"><steptml:parameter name="city">Oslo</steptml:parameter></steptml:invoke>${END}${CALLS_END}`;
    const r = parse(text);
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([['invoke-xml', 'get_forecast', { city: 'Oslo' }]]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('DeepSeek near-misses', () => {
  it('prose that explains the tokens is not a call, nor an attempt', () => {
    const prose = `DeepSeek V3 opens its calls with ${CALLS} and each call with ${CALL}, then writes the type, ${SEP} and the name.`;
    expect(parse(prose).calls).toEqual([]);
    expect(attempts(prose)).toEqual([]);
    const dsml =
      'In V3.2 the tags are <｜DSML｜function_calls> and <｜DSML｜invoke>, with a string attribute on each parameter.';
    expect(parse(dsml).calls).toEqual([]);
    expect(attempts(dsml)).toEqual([]);
  });

  it('a block opener that prose mentions does not open a block: the call after the prose is its own', () => {
    const text = `For example, a list of calls opens with ${CALLS}. That token is written only when a tool is called for real, as now:\n${v31('get_forecast', '{"city": "Oslo"}')}`;
    expect(summary(text)).toEqual([
      { name: 'get_forecast', args: { city: 'Oslo' }, via: 'deepseek', truncated: false },
    ]);
  });

  it('a call introduced as an example is a quoted example', () => {
    const r = parse(`For example: ${CALLS}${v31('get_forecast', '{"city": "Oslo"}')}${CALLS_END}`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});
