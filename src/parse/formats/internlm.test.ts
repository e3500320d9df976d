import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

const plugin = (json: string) => `<|action_start|><|plugin|>\n${json}<|action_end|>`;

describe('internlm: <|action_start|><|plugin|>{…}<|action_end|>', () => {
  it('reads one call, the region from <|action_start|> to <|action_end|>', () => {
    const text = plugin('{"name": "get_train_times", "parameters": {"from": "Oslo S", "to": "Bergen"}}');
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'internlm',
      name: 'get_train_times',
      args: { from: 'Oslo S', to: 'Bergen' },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls with prose around them', () => {
    const r = parse(
      `First the train, then a hotel.${plugin('{"name": "get_train_times", "parameters": {"to": "Bergen"}}')}` +
        `${plugin('{"name": "find_hotel", "arguments": {"city": "Bergen", "nights": 2}}')} Back soon.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['internlm', 'get_train_times', { to: 'Bergen' }],
      ['internlm', 'find_hotel', { city: 'Bergen', nights: 2 }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('reads a call whose <|action_end|> a server stripped', () => {
    const r = parse('<|action_start|><|plugin|>{"name": "get_weather", "parameters": {"city": "Turku"}}');
    expect(r.calls[0]).toMatchObject({ via: 'internlm', name: 'get_weather', args: { city: 'Turku' } });
    expect(r.calls[0]?.truncated).toBeUndefined();
  });

  it('finds the call after a <think> block; inside one it is call-in-think', () => {
    const call = plugin('{"name": "get_weather", "parameters": {"city": "Turku"}}');
    const after = parse(`<think>weather</think>${call}`);
    expect(after.calls[0]).toMatchObject({ via: 'internlm', name: 'get_weather' });
    expect(codes(after)).toEqual([]);
    const inside = parse(`<think>${call}</think>Sunny.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a call the reply cut off as truncated and repaired', () => {
    const r = parse('<|action_start|><|plugin|>\n{"name": "lookup_word", "parameters": {"word": "serendipi');
    expect(r.calls[0]).toMatchObject({
      via: 'internlm',
      name: 'lookup_word',
      args: { word: 'serendipi' },
      truncated: true,
      repaired: true,
    });
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const md = '```md\n# Title\n```\n<|action_end|> <tool_call> `t`';
    const r = parse(plugin(JSON.stringify({ name: 'render_markdown', parameters: { md } })));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'internlm', name: 'render_markdown', args: { md } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports a body that is not a call as a wrong-shape attempt', () => {
    const r = parse(plugin('{"plugin": "render_markdown", "md": "# hi"}'));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });
});

describe('internlm: near misses', () => {
  it('prose that mentions the tokens is not a call', () => {
    const r = parse('InternLM starts an action with <|action_start|><|plugin|> and ends it with <|action_end|>.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('the code interpreter action is not a tool call', () => {
    const r = parse('<|action_start|><|interpreter|>\n```python\nprint(2 + 2)\n```<|action_end|>');
    expect(r.calls.filter((c) => c.via === 'internlm')).toEqual([]);
  });

  it('the tokens with no call after them are not a call', () => {
    const r = parse('<|action_start|><|plugin|><|action_end|>');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });
});
