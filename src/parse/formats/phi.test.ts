import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

describe('phi: functools[…]', () => {
  it('reads one call, the region from functools to the end of the list', () => {
    const text = 'functools[{"name": "track_parcel", "arguments": {"tracking_no": "LX123456789NO"}}]';
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'phi',
      name: 'track_parcel',
      args: { tracking_no: 'LX123456789NO' },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls after prose, with prose after the list', () => {
    const r = parse(
      'On it: functools[{"name": "track_parcel", "arguments": {"tracking_no": "A1"}}, ' +
        '{"name": "notify", "arguments": {"channel": "sms"}}] - I will tell you when it lands.',
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['phi', 'track_parcel', { tracking_no: 'A1' }],
      ['phi', 'notify', { channel: 'sms' }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('finds the call after a <think> block; inside one it is call-in-think', () => {
    const call = 'functools[{"name": "calc_bmi", "arguments": {"kg": 70, "m": 1.8}}]';
    const after = parse(`<think>simple</think>\n${call}`);
    expect(after.calls[0]).toMatchObject({ via: 'phi', name: 'calc_bmi', args: { kg: 70, m: 1.8 } });
    expect(codes(after)).toEqual([]);
    const inside = parse(`<think>${call}</think>About 21.6.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('flags a list the reply cut off as truncated and repaired', () => {
    const r = parse('functools[{"name": "play_song", "arguments": {"title": "Take On M');
    expect(r.calls[0]).toMatchObject({
      via: 'phi',
      name: 'play_song',
      args: { title: 'Take On M' },
      truncated: true,
      repaired: true,
    });
  });

  it('keeps a code fence and tag-like text inside a string value intact', () => {
    const text = '```\nfunctools[]\n```\n<tool_call></tool_call> `z`';
    const r = parse(`functools${JSON.stringify([{ name: 'add_note', arguments: { text } }])}`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ via: 'phi', name: 'add_note', args: { text } });
    expect(r.diagnostics).toEqual([]);
  });

  it('reports a list whose objects are not calls as a wrong-shape attempt', () => {
    const r = parse('functools[{"tool": "add_note", "text": "milk"}]');
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });

  it('reports arguments that do not parse as an attempt', () => {
    // the arguments string holds JSON with a broken escape (`\u12`), which no repair makes readable
    const r = parse(`functools${JSON.stringify([{ name: 'add_note', arguments: '{"a": "\\u12"}' }])}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['unparseable-arguments']);
  });
});

describe('phi: near misses', () => {
  it('Python code that uses functools is not a call', () => {
    const r = parse('Use functools.lru_cache, or myfunctools[{"name": "x", "arguments": {}}] in your own module.');
    expect(r.calls.filter((c) => c.via === 'phi')).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'wrong-shape' || d.code === 'unparseable-arguments')).toEqual([]);
  });

  it('functools[ followed by no JSON is not a call', () => {
    const r = parse('Phi writes functools[ and then the list of calls.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('an empty list is not a call', () => {
    const r = parse('functools[]');
    expect(r.calls).toEqual([]);
  });
});
