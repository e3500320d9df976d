import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';
import { findReasoningChannels } from './reasoning-channels.js';

const analysis = (text: string) => `<|channel|>analysis<|message|>${text}<|end|>`;
const commentaryCall = (name: string, json: string) =>
  `<|start|>assistant<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${json}<|call|>`;

describe('harmony: messages to functions.NAME', () => {
  it('reads a call after the analysis message; the call region runs from <|start|> to <|call|>', () => {
    const callText = commentaryCall('get_flight_status', '{"flight": "SK4035", "date": "2025-03-02"}');
    const text = analysis('The user asks about a flight; look it up.') + callText;
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'harmony',
      name: 'get_flight_status',
      args: { flight: 'SK4035', date: '2025-03-02' },
      rawArgs: '{"flight": "SK4035", "date": "2025-03-02"}',
      repaired: false,
      span: [text.length - callText.length, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads a message without <|start|> (the prompt ended with it) and without <|call|> (a stop token)', () => {
    const r = parse('<|channel|>commentary to=functions.list_pods <|constrain|>json<|message|>{"namespace": "prod"}');
    expect(r.calls[0]).toMatchObject({ via: 'harmony', name: 'list_pods', args: { namespace: 'prod' } });
    expect(r.calls[0]?.truncated).toBeUndefined();
  });

  it('reads the recipient written before the channel', () => {
    const r = parse(
      '<|start|>assistant to=functions.resize_image<|channel|>commentary json<|message|>{"width": 640, "height": 480}<|call|>',
    );
    expect(r.calls[0]).toMatchObject({ via: 'harmony', name: 'resize_image', args: { width: 640, height: 480 } });
  });

  it('reads several calls in one reply, and a functions.x recipient on the analysis channel as a call', () => {
    const r = parse(
      commentaryCall('get_balance', '{"account": "savings"}') +
        '<|start|>assistant<|channel|>analysis to=functions.get_balance <|constrain|>json<|message|>{"account": "checking"}<|call|>',
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['harmony', 'get_balance', { account: 'savings' }],
      ['harmony', 'get_balance', { account: 'checking' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('finds the call after prose and a <think> block', () => {
    const r = parse(`<think>plan</think>Let me check.${commentaryCall('check_domain', '{"domain": "example.org"}')}`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'harmony', name: 'check_domain' });
    expect(codes(r)).toEqual([]);
  });

  it('reports a call inside a <think> block as call-in-think, not a call', () => {
    const r = parse(`<think>${commentaryCall('check_domain', '{"domain": "example.org"}')}</think>It is free.`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('flags arguments the reply cut off as truncated and repaired', () => {
    const r = parse(
      '<|channel|>commentary to=functions.open_ticket <|constrain|>json<|message|>{"title": "VPN drops every',
    );
    expect(r.calls[0]).toMatchObject({
      via: 'harmony',
      name: 'open_ticket',
      args: { title: 'VPN drops every' },
      truncated: true,
      repaired: true,
    });
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const patch = '```diff\n- a\n+ b\n```\n<tool_call>{"name": "x"}</tool_call> `c`';
    const r = parse(commentaryCall('apply_patch', JSON.stringify({ patch })));
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'harmony', name: 'apply_patch', args: { patch } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports arguments that do not parse as an attempt', () => {
    const r = parse(commentaryCall('apply_patch', 'apply the diff please'));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['unparseable-arguments']);
  });
});

describe('harmony: the analysis channel is reasoning', () => {
  it('a call written inside an analysis message is call-in-think', () => {
    const r = parse(
      `${analysis('I could send <tool_call>{"name": "notify", "arguments": {"to": "ops"}}</tool_call> now.')}` +
        '<|start|>assistant<|channel|>final<|message|>I will wait.<|return|>',
    );
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('spans the analysis message from its header to its end token, and no other message', () => {
    const first = '<|start|>assistant<|channel|>analysis<|message|>Thinking.<|end|>';
    const text = `${first}<|start|>assistant<|channel|>final<|message|>Done.<|return|>`;
    expect(findReasoningChannels(text)).toEqual([[0, first.length]]);
  });

  it('an analysis message cut off runs to the end of the reply', () => {
    const text = 'x<|channel|>analysis<|message|>Still thinking about';
    expect(findReasoningChannels(text)).toEqual([[1, text.length]]);
  });
});

describe('harmony: near misses', () => {
  it('prose that mentions the markup is not a call', () => {
    const r = parse(
      'gpt-oss writes <|channel|>commentary to=functions.get_weather before the arguments, then <|call|> after them.',
    );
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a final message and a built-in tool recipient are not calls', () => {
    const r = parse(
      '<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"query": "harmony format"}<|call|>' +
        '<|start|>assistant<|channel|>final<|message|>Here is the answer.<|return|>',
    );
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${commentaryCall('get_weather', '{"city": "Tromsø"}')}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });
});
