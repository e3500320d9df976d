import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

describe('functionary v2: <|recipient|>NAME\\n<|content|>{…}', () => {
  it('reads one call; the region takes in its <|from|>assistant line and <|stop|>', () => {
    const text =
      '<|from|>assistant\n<|recipient|>get_air_quality\n<|content|>{"city": "Delhi", "pollutant": "pm25"}<|stop|>';
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'functionary',
      name: 'get_air_quality',
      args: { city: 'Delhi', pollutant: 'pm25' },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after a message to all (text, not a call)', () => {
    const r = parse(
      '<|recipient|>all\n<|content|>Checking two cities.\n' +
        '<|from|>assistant\n<|recipient|>get_air_quality\n<|content|>{"city": "Lima"}\n' +
        '<|from|>assistant\n<|recipient|>get_air_quality\n<|content|>{"city": "Quito"}<|stop|>',
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['functionary', 'get_air_quality', { city: 'Lima' }],
      ['functionary', 'get_air_quality', { city: 'Quito' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('flags content the reply cut off as truncated and repaired', () => {
    const r = parse('<|recipient|>lookup_isbn\n<|content|>{"isbn": "978-82-0');
    expect(r.calls[0]).toMatchObject({
      via: 'functionary',
      name: 'lookup_isbn',
      args: { isbn: '978-82-0' },
      truncated: true,
      repaired: true,
    });
  });

  it('reports content that does not parse as an attempt', () => {
    const r = parse('<|recipient|>lookup_isbn\n<|content|>the isbn of Sult<|stop|>');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['unparseable-arguments']);
  });
});

describe('functionary v3: >>>NAME\\n{…}', () => {
  it('reads one call at the start of the reply', () => {
    const text = '>>>convert_units\n{"value": 12, "from": "mi", "to": "km"}';
    const r = parse(text);
    expect(r.calls[0]).toMatchObject({
      via: 'functionary',
      name: 'convert_units',
      args: { value: 12, from: 'mi', to: 'km' },
      span: [0, text.length],
    });
    notAccepted(r);
  });

  it('reads calls chained right after a message to all and after each other', () => {
    const r = parse('>>>all\nLet me convert both.>>>convert_units\n{"value": 1}>>>convert_units\n{"value": 2}');
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['functionary', 'convert_units', { value: 1 }],
      ['functionary', 'convert_units', { value: 2 }],
    ]);
  });

  it("reads v3.2's >>>python followed by raw code as a python call", () => {
    const r = parse('>>>python\nimport math\nprint(math.factorial(10))');
    expect(r.calls[0]).toMatchObject({
      via: 'functionary',
      name: 'python',
      args: { code: 'import math\nprint(math.factorial(10))' },
    });
  });

  it('finds the call on a line after prose and a <think> block; inside one it is call-in-think', () => {
    const after = parse('<think>units</think>Converting now.\n>>>convert_units\n{"value": 3}');
    expect(after.calls[0]).toMatchObject({ via: 'functionary', name: 'convert_units', args: { value: 3 } });
    expect(codes(after)).toEqual([]);
    const inside = parse('<think>\n>>>convert_units\n{"value": 3}\n</think>About 4.8 km.');
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags JSON the reply cut off as truncated and repaired', () => {
    const r = parse('>>>geocode\n{"address": "Karl Johans gate 2, Os');
    expect(r.calls[0]).toMatchObject({
      via: 'functionary',
      name: 'geocode',
      args: { address: 'Karl Johans gate 2, Os' },
      truncated: true,
      repaired: true,
    });
  });

  it('keeps a code fence, >>> and tag-like text inside a string value intact', () => {
    const text = '```py\n>>> 1 + 1\n2\n```\n>>>all\n<tool_call> `v`';
    const r = parse(`>>>save_doc\n${JSON.stringify({ text })}`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'functionary', name: 'save_doc', args: { text } });
    expect(r.diagnostics).toEqual([]);
  });
});

describe('functionary: near misses', () => {
  it('markdown quotes and REPL prompts are not calls', () => {
    const r = parse(
      'As the docs say:\n>>> import json\n>>> json.dumps({"a": 1})\nand a nested quote:\n>>>note\nplain text',
    );
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('>>> in the middle of a sentence is not a call', () => {
    const r = parse('The arrow >>>get_weather\n{"city": "Oslo"} appears mid-line here.');
    expect(r.calls.filter((c) => c.via === 'functionary')).toEqual([]);
  });

  it('prose that mentions the v2 tokens is not a call', () => {
    const r = parse('Functionary v2 writes <|recipient|> then the tool name, then <|content|> with the arguments.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a message to all is text', () => {
    const r = parse('>>>all\nThere is nothing to look up.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('functionary v3.1: <function=NAME>{…}</function>', () => {
  it('is read as function-tags', () => {
    const r = parse('<function=get_weather>{"city": "Oslo"}</function>');
    expect(r.calls[0]).toMatchObject({ via: 'function-tags', name: 'get_weather', args: { city: 'Oslo' } });
  });
});
