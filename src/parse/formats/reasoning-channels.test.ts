import { describe, expect, it } from 'vitest';
import { codes, parse } from '../../../tests/helpers/format-test-kit.js';
import { stripThink } from '../index.js';

const hermes = '<tool_call>{"name": "get_stock", "arguments": {"sku": "B-12"}}</tool_call>';

describe('reasoning channels of every family are masked like <think>', () => {
  it('Seed-OSS <seed:think>: a call inside is call-in-think, the call after it is read', () => {
    const r = parse(`<seed:think>I might run ${hermes}</seed:think>Stock is fine.`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
    const after = parse(`<seed:think>Look it up.</seed:think>${hermes}`);
    expect(after.calls.map((c) => c.name)).toEqual(['get_stock']);
    expect(stripThink(`<seed:think>x</seed:think>Answer.`)).toBe('Answer.');
  });

  it('a </seed:think> with no opening tag (the template opened it) makes everything before it reasoning', () => {
    const r = parse(`Draft: ${hermes}</seed:think>No call needed.`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('Apertus <|inner_prefix|>…<|inner_suffix|>', () => {
    const r = parse(`<|inner_prefix|>${hermes}<|inner_suffix|>All in stock.`);
    expect(r.calls).toEqual([]);
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('Kimi K3 think channel, closed or left open by a cut', () => {
    expect(codes(parse(`<|open|>think<|sep|>${hermes}<|close|>think<|sep|>Done.`))).toEqual(['call-in-think']);
    expect(codes(parse(`<|open|>think<|sep|>still thinking ${hermes}`))).toEqual(['call-in-think']);
  });

  it('K2 Horizon <ifm|think_faster>', () => {
    expect(codes(parse(`<ifm|think_faster>${hermes}</ifm|think_faster>ok`))).toEqual(['call-in-think']);
  });

  it("Muse Glimmer's message to itself ends at its end token; the message after it is read", () => {
    const self = `<|start|>assistant to=self<|message|>plan: ${hermes}<|eom|>`;
    const r = parse(`${self}<|start|>assistant<|message|>${hermes}<|eot|>`);
    expect(r.calls.map((c) => c.name)).toEqual(['get_stock']);
    expect(codes(r)).toEqual(['call-in-think']);
  });

  it('an unclosed Glimmer self message ends where the next message starts, even when that one is closed', () => {
    const r = parse(`<|start|>assistant to=self<|message|>maybe ${hermes}<|start|>assistant<|message|>${hermes}`);
    expect(r.calls).toHaveLength(1);
    expect(codes(r)).toEqual(['call-in-think']);
    const next = parse(`<|start|>assistant to=self<|message|>maybe<|start|>assistant<|message|>${hermes}<|eom|>`);
    expect(next.calls.map((c) => c.name)).toEqual(['get_stock']);
  });

  it("Inkling's thinking block ends at <|end_message|> or the next message", () => {
    const closed = parse(
      `<|message_model|><|content_thinking|>${hermes}<|end_message|><|message_model|><|content_text|>Fine.`,
    );
    expect(closed.calls).toEqual([]);
    expect(codes(closed)).toEqual(['call-in-think']);
    const open = parse(`<|message_model|><|content_thinking|>${hermes}<|message_model|>${hermes}`);
    expect(open.calls).toHaveLength(1);
    expect(codes(open)).toEqual(['call-in-think']);
  });
});

describe('reasoning channels: near misses', () => {
  it('prose that names a reasoning tag in passing does not hide the call after it', () => {
    const r = parse(`Seed models think in a seed:think block. ${hermes}`);
    expect(r.calls.map((c) => c.name)).toEqual(['get_stock']);
  });

  it('a Glimmer message to a tool is not reasoning', () => {
    const r = parse(`<|start|>assistant to=get_stock<|message|>${hermes}<|eom|>`);
    expect(r.calls.map((c) => c.name)).toEqual(['get_stock']);
    expect(codes(r)).toEqual([]);
  });
});
