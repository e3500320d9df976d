import { describe, expect, it } from 'vitest';
import { codes, notAccepted, parse } from '../../../tests/helpers/format-test-kit.js';

const call = (body: string) => `<|tool_call_start|>${body}<|tool_call_end|>`;

describe('lfm2: <|tool_call_start|>[name(…)]<|tool_call_end|>', () => {
  it('reads one python call list, the region from the start token to the end token', () => {
    const text = call('[set_alarm(time="07:15", label="Gym")]');
    const r = parse(text);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      via: 'lfm2',
      name: 'set_alarm',
      args: { time: '07:15', label: 'Gym' },
      repaired: false,
      span: [0, text.length],
    });
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    notAccepted(r);
  });

  it('reads several calls in one list after prose, with prose after the end token', () => {
    const r = parse(
      `Setting both alarms now. ${call("[set_alarm(time='06:00'), set_alarm(time='06:30', snooze=False)]")} They are set.`,
    );
    expect(r.calls.map((c) => [c.via, c.name, c.args])).toEqual([
      ['lfm2', 'set_alarm', { time: '06:00' }],
      ['lfm2', 'set_alarm', { time: '06:30', snooze: false }],
    ]);
    expect(codes(r)).toEqual(['multiple-calls']);
  });

  it('reads a bare call without brackets, and a JSON list of call objects', () => {
    expect(parse(call('list_alarms()')).calls[0]).toMatchObject({ via: 'lfm2', name: 'list_alarms', args: {} });
    const json = parse(call('[{"name": "set_alarm", "arguments": {"time": "05:45"}}]'));
    expect(json.calls[0]).toMatchObject({ via: 'lfm2', name: 'set_alarm', args: { time: '05:45' } });
  });

  it('reads two token pairs in a row', () => {
    const r = parse(`${call('[list_alarms()]')}${call('[set_alarm(time="09:00")]')}`);
    expect(r.calls.map((c) => c.name)).toEqual(['list_alarms', 'set_alarm']);
  });

  it('finds the call after a <think> block; inside one it is call-in-think', () => {
    const c = call('[list_alarms()]');
    const after = parse(`<think>Check what is set.</think>${c}`);
    expect(after.calls[0]).toMatchObject({ via: 'lfm2', name: 'list_alarms' });
    expect(codes(after)).toEqual([]);
    const inside = parse(`<think>I could run ${c}</think>You have no alarms.`);
    expect(inside.calls).toEqual([]);
    expect(codes(inside)).toEqual(['call-in-think']);
  });

  it('reads a list the reply cut off up to the cut, flagged truncated', () => {
    const r = parse('<|tool_call_start|>[set_alarm(time="07:00", label="Wa');
    expect(r.calls[0]).toMatchObject({
      via: 'lfm2',
      name: 'set_alarm',
      args: { time: '07:00', label: 'Wa' },
      truncated: true,
    });
  });

  it('flags a whole list without its end token as truncated', () => {
    const r = parse('<|tool_call_start|>[list_alarms()]');
    expect(r.calls[0]).toMatchObject({ via: 'lfm2', name: 'list_alarms', truncated: true, repaired: false });
  });

  it('keeps the end token and brackets inside a string value', () => {
    const r = parse(call('[post_note(text="close with <|tool_call_end|> and ] then")]'));
    expect(r.calls[0]).toMatchObject({ name: 'post_note', args: { text: 'close with <|tool_call_end|> and ] then' } });
  });
});

describe('lfm2: near misses', () => {
  it('prose that names the tokens is not a call', () => {
    const r = parse('LFM2 wraps calls in <|tool_call_start|> … <|tool_call_end|> tokens.');
    expect(r.calls).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it('a call shown as an example is a quoted example', () => {
    const r = parse(`For example: ${call('[list_alarms()]')}`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['quoted-example']);
  });

  it('a body that is not a call list is a wrong-shape attempt', () => {
    const r = parse(call('[1, 2, 3]'));
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['wrong-shape']);
  });
});
