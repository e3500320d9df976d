import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

describe('mistral: [TOOL_CALLS] before v11 (a JSON list)', () => {
  it('reads one call with its id, the region from the token to the end of the list', () => {
    const text = '[TOOL_CALLS] [{"name": "lookup_order", "arguments": {"order_id": 48213}, "id": "Zq81Lm0pA"}]';
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'mistral',
      name: 'lookup_order',
      args: { order_id: 48213 },
      id: 'Zq81Lm0pA',
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after prose, with prose after the list', () => {
    const text =
      'I will check both warehouses.[TOOL_CALLS][{"name": "stock_level", "arguments": {"sku": "KB-101", "site": "north"}}, ' +
      '{"name": "stock_level", "arguments": {"sku": "KB-101", "site": "south"}}] Results follow.';
    const r = parse(text);
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['mistral', 'stock_level', { sku: 'KB-101', site: 'north' }],
      ['mistral', 'stock_level', { sku: 'KB-101', site: 'south' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
    notAccepted(r);
  });

  it('flags a list the reply cut off as truncated and repaired', () => {
    const r = parse('[TOOL_CALLS][{"name": "search_docs", "arguments": {"query": "rate limits for the bat');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'mistral',
      name: 'search_docs',
      args: { query: 'rate limits for the bat' },
      truncated: true,
      repaired: true,
    });
    expect(codes(r)).toEqual(expect.arrayContaining(['truncated', 'repaired']));
  });

  it('reports a list whose elements are not calls as a wrong-shape attempt', () => {
    const r = parse('[TOOL_CALLS][{"name": "stock_level", "arguments": {"sku": "A"}}, 7]');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });
});

describe('mistral: [TOOL_CALLS]name[ARGS]{…} from v11', () => {
  it('reads one call per token, several per reply', () => {
    const first = '[TOOL_CALLS]convert_currency[ARGS]{"amount": 120.5, "from": "EUR", "to": "NOK"}';
    const text = `${first}[TOOL_CALLS]get_rate_history[ARGS]{"pair": "EUR/NOK", "days": 30}`;
    const r = parse(text);
    expect(r.calls.map((c) => [c.via, c.name, c.args, c.span])).toEqual([
      ['mistral', 'convert_currency', { amount: 120.5, from: 'EUR', to: 'NOK' }, [0, first.length]],
      ['mistral', 'get_rate_history', { pair: 'EUR/NOK', days: 30 }, [first.length, text.length]],
    ]);
    expect(r.calls[0]?.rawArgs).toBe('{"amount": 120.5, "from": "EUR", "to": "NOK"}');
    notAccepted(r);
  });

  it('takes the call id from [CALL_ID]', () => {
    const r = parse('[TOOL_CALLS]create_ticket[CALL_ID]k3J9xQ2mB[ARGS]{"title": "Printer jam", "priority": "low"}');
    expect(r.calls[0]).toMatchObject({
      via: 'mistral',
      name: 'create_ticket',
      id: 'k3J9xQ2mB',
      args: { title: 'Printer jam', priority: 'low' },
    });
  });

  it('reads name{json} when the tokenizer dropped [ARGS]', () => {
    const r = parse('Sure.[TOOL_CALLS]list_files{"dir": "/srv/logs"}');
    expect(r.calls[0]).toMatchObject({ via: 'mistral', name: 'list_files', args: { dir: '/srv/logs' } });
  });

  it('finds the call after a <think> block', () => {
    const r = parse(
      '<think>The user wants Tuesday.</think>[TOOL_CALLS]book_room[ARGS]{"room": "B2", "day": "Tuesday"}',
    );
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'mistral', name: 'book_room', args: { room: 'B2', day: 'Tuesday' } });
    expect(codes(r)).toEqual([]);
  });

  it('reports a call inside a <think> block as call-in-think, not a call', () => {
    const r = parse('<think>Maybe [TOOL_CALLS]book_room[ARGS]{"room": "B2"} but I should ask first.</think>Which day?');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
    expect(r.diagnostics[0]?.message).toContain('book_room');
  });

  it('flags arguments the reply cut off as truncated and repaired', () => {
    const r = parse('[TOOL_CALLS]send_email[ARGS]{"to": "ops@example.org", "subject": "Disk alert on db-');
    expect(r.calls[0]).toMatchObject({
      via: 'mistral',
      name: 'send_email',
      args: { to: 'ops@example.org', subject: 'Disk alert on db-' },
      truncated: true,
      repaired: true,
    });
  });

  it('reads a reply cut right after the name as a truncated call with no arguments', () => {
    const r = parse('One moment.[TOOL_CALLS]refresh_cache');
    expect(r.calls[0]).toMatchObject({ via: 'mistral', name: 'refresh_cache', args: {}, truncated: true });
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const content = '```python\nprint("hi")\n```\n<tool_call>{"name": "x"}</tool_call> [TOOL_CALLS] `y`';
    const r = parse(`[TOOL_CALLS]write_file[ARGS]${JSON.stringify({ path: 'notes.md', content })} Saved.`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'mistral', name: 'write_file', args: { path: 'notes.md', content } });
    expect(r.diagnostics).toEqual([]);
  });

  it("a call quoted inside another call's JSON string value stays that value", () => {
    const quoted = '[TOOL_CALLS][{"name": "x", "arguments": {}}] then [TOOL_CALLS]y[ARGS]{"b": 2}';
    const r = parse(JSON.stringify({ name: 'save_note', arguments: { text: quoted } }));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'json', name: 'save_note', args: { text: quoted } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports arguments that do not parse as an attempt', () => {
    const r = parse('[TOOL_CALLS]get_weather[ARGS]{"city"::: "Oslo"}');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['unparseable-arguments']);
  });

  it('reports a call inside a code fence as wrapped by it', () => {
    const r = parse('```\n[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo"}\n```');
    expect(r.calls[0]).toMatchObject({ via: 'fenced', inner: 'mistral', name: 'get_weather', fence: '' });
  });
});

describe("mistral: Magistral's [THINK]…[/THINK] is reasoning", () => {
  it('a call inside it is call-in-think; the call after it is a call', () => {
    const r = parse(
      '[THINK]First [TOOL_CALLS]draft[ARGS]{"v": 1} was wrong.[/THINK][TOOL_CALLS]publish[ARGS]{"post_id": 12}',
    );
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'mistral', name: 'publish', args: { post_id: 12 } });
    expect(codes(r)).toEqual(['call-in-think']);
  });
});

describe('mistral: near misses', () => {
  it('prose that mentions the token is not a call', () => {
    const r = parse('Mistral models write [TOOL_CALLS] before the list of calls, then each call as JSON.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('the token with nothing after it is not a call', () => {
    const r = parse('Let me think about it.[TOOL_CALLS]   ');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse('For example: [TOOL_CALLS]get_weather[ARGS]{"city": "Oslo"} would look up Oslo.');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });

  it('a tool name mentioned in prose after the token is not a call', () => {
    const r = parse('The [TOOL_CALLS] get_weather part is what the server turns into a tool call.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });
});
