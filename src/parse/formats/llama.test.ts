import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

describe('llama: Llama 3.x <|python_tag|>', () => {
  it('reads a JSON call up to <|eom_id|>, the token included in its region', () => {
    const text =
      '<|python_tag|>{"name": "find_recipe", "parameters": {"dish": "lentil soup", "servings": 4}}<|eom_id|>';
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'llama',
      name: 'find_recipe',
      args: { dish: 'lentil soup', servings: 4 },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several JSON calls separated by semicolons, after prose', () => {
    const r = parse(
      'Checking both.<|python_tag|>{"name": "ping_host", "parameters": {"host": "10.0.0.4"}}; ' +
        '{"type": "function", "name": "ping_host", "parameters": {"host": "10.0.0.9"}}<|eot_id|>',
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['llama', 'ping_host', { host: '10.0.0.4' }],
      ['llama', 'ping_host', { host: '10.0.0.9' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
    notAccepted(r);
  });

  it('reads a call with no end token (a server stripped it) and the prose after it as prose', () => {
    const r = parse('<|python_tag|>{"name": "get_stock_price", "parameters": {"ticker": "NVDA"}} I will report back.');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'llama', name: 'get_stock_price', args: { ticker: 'NVDA' } });
    expect(r.calls[0]?.truncated).toBeUndefined();
  });

  it("reads a built-in tool's python call as that tool", () => {
    const r = parse('<|python_tag|>wolfram_alpha.call(query="integral of x^2 from 0 to 3")<|eom_id|>');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'llama',
      name: 'wolfram_alpha',
      args: { query: 'integral of x^2 from 0 to 3' },
    });
    notAccepted(r);
  });

  it('finds the call after a <think> block', () => {
    const r = parse('<think>Need the forecast.</think><|python_tag|>{"name": "forecast", "parameters": {"days": 2}}');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'llama', name: 'forecast', args: { days: 2 } });
    expect(codes(r)).toEqual([]);
  });

  it('reports a call inside a <think> block as call-in-think, not a call', () => {
    const r = parse('<think><|python_tag|>{"name": "forecast", "parameters": {"days": 2}}</think>It will rain.');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('flags JSON the reply cut off as truncated and repaired', () => {
    const r = parse('<|python_tag|>{"name": "translate", "parameters": {"text": "Guten Mor');
    expect(r.calls[0]).toMatchObject({
      via: 'llama',
      name: 'translate',
      args: { text: 'Guten Mor' },
      truncated: true,
      repaired: true,
    });
    expect(codes(r)).toEqual(expect.arrayContaining(['truncated', 'repaired']));
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const snippet = '```bash\nls -la\n```\n</tool_call> <|eom_id|> <|python_tag|> `x`';
    const r = parse(`<|python_tag|>${JSON.stringify({ name: 'run_script', parameters: { snippet } })}<|eom_id|>`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'llama', name: 'run_script', args: { snippet } });
    expect(r.diagnostics).toEqual([]);
  });

  it("a call quoted inside another call's JSON string value stays that value", () => {
    const quoted = 'Llama writes <|python_tag|>{"name": "f", "parameters": {"a": 1}}<|eom_id|> for a call.';
    const r = parse(`<tool_call>${JSON.stringify({ name: 'save_note', arguments: { text: quoted } })}</tool_call>`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'xml-tags', name: 'save_note', args: { text: quoted } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports JSON that does not parse as an attempt', () => {
    const r = parse('<|python_tag|>{"name": "translate", "parameters"::: {}}<|eom_id|>');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['unparseable-arguments']);
  });
});

describe('llama: Llama 4 <|python_start|>…<|python_end|>', () => {
  it('reads a python call list', () => {
    const text = '<|python_start|>[get_weather(city="Reykjavik", unit="celsius"), get_time(zone="GMT")]<|python_end|>';
    const r = parse(text);
    expect(r.calls.map((c) => [c.via, c.name, c.args, c.span])).toEqual([
      ['llama', 'get_weather', { city: 'Reykjavik', unit: 'celsius' }, [0, text.length]],
      ['llama', 'get_time', { zone: 'GMT' }, [0, text.length]],
    ]);
    notAccepted(r);
  });

  it('reads a list the reply cut off, closed where it stops', () => {
    const r = parse('Looking it up.<|python_start|>[search_papers(topic="protein folding", year=20');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'llama', name: 'search_papers', truncated: true, repaired: true });
    expect(r.calls[0]?.args).toMatchObject({ topic: 'protein folding' });
  });
});

describe('llama: near misses', () => {
  it('prose that mentions the token is not a call', () => {
    const r = parse('Llama emits <|python_tag|> followed by the call, and then <|eom_id|> when it waits for a result.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('the token with nothing after it is not a call', () => {
    const r = parse('Let me see.<|python_tag|><|eot_id|>');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('raw code for the code interpreter is not a tool call', () => {
    const r = parse('<|python_tag|>print(sum(range(10)))<|eom_id|>');
    expect(r.calls).toEqual([]);
  });

  it('a bare {"name", "parameters"} with no token is still found as JSON', () => {
    const r = parse('{"name": "find_recipe", "parameters": {"dish": "stew"}}');
    expect(r.calls[0]).toMatchObject({ via: 'json', name: 'find_recipe', args: { dish: 'stew' } });
  });
});
