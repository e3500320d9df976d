import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResponse } from './index.js';
import { parsePythonCalls } from './python-call.js';

const argsOf = (src: string) => {
  const r = parsePythonCalls(src);
  if (!r.ok) throw new Error(r.error);
  return r.calls.map((c) => c.args);
};

describe('parsePythonCalls', () => {
  it('strings: every quote kind, prefixes, escapes, concatenation', () => {
    expect(
      argsOf(
        `[f(a='x', b="y", c='''t'q''', d="""m\nl""", e=r'\\d+', g="tab\\tnl\\n\\u00e9\\x41\\101", h='it\\'s' "!")]`,
      ),
    ).toEqual([{ a: 'x', b: 'y', c: "t'q", d: 'm\nl', e: '\\d+', g: 'tab\tnl\né\x41A', h: "it's!" }]);
  });

  it('numbers, booleans, None, containers, nested calls and names as values', () => {
    expect(
      argsOf(
        '[f(i=-3, fl=2.5, e=1e3, h=0x1F, u=1_000, t=True, n=None, l=[1, [2]], tp=(1, "a"), one=(4), d={"k": {"j": False}}, s={1, 2}, c=datetime.date(2024, 1, day=2), v=math.pi)]',
      ),
    ).toEqual([
      {
        i: -3,
        fl: 2.5,
        e: 1000,
        h: 31,
        u: 1000,
        t: true,
        n: null,
        l: [1, [2]],
        tp: [1, 'a'],
        one: 4,
        d: { k: { j: false } },
        s: [1, 2],
        c: 'datetime.date(2024, 1, day=2)',
        v: 'math.pi',
      },
    ]);
  });

  it('several calls, dotted names, rawArgs and spans', () => {
    const src = '[a.b(x=1), c(y="z")]';
    const r = parsePythonCalls(src);
    expect(r.ok && r.calls.map((c) => [c.name, c.rawArgs, src.slice(...c.span)])).toEqual([
      ['a.b', 'x=1', 'a.b(x=1)'],
      ['c', 'y="z"', 'c(y="z")'],
    ]);
  });

  it('positional arguments are kept as _0 and counted', () => {
    const r = parsePythonCalls('f(1, x=2)');
    expect(r.ok && r.calls[0]).toMatchObject({ args: { _0: 1, x: 2 }, positional: 1 });
  });

  it('a name is a keyword only when `=` follows it (after any spaces); otherwise it is a value', () => {
    const r = parsePythonCalls('f(a = 1, b\n=\t2, c, unit, g(x = 3, y), d=e)');
    expect(r.ok && r.calls[0]).toMatchObject({
      args: { a: 1, b: 2, _0: 'c', _1: 'unit', _2: 'g(x = 3, y)', d: 'e' },
      positional: 3,
    });
    // `==` is not a keyword argument: the second `=` is not a value
    expect(parsePythonCalls('f(a==1)').ok).toBe(false);
  });

  it.each([
    ['unterminated string', '[f(a="abc)]'],
    ['missing paren', '[f(a=1]'],
    ['deep nesting', `[f(a=${'['.repeat(500)})]`],
    ['not a call', 'Hello there'],
    ['complex number', 'f(a=1j)'],
    ['double star', 'f(**kw)'],
  ])('%s fails without throwing', (_, src) => {
    const r = parsePythonCalls(src);
    expect(r.ok).toBe(false);
  });
});

describe('parsePythonCalls in repair mode (a reply cut off mid-list)', () => {
  const repaired = (src: string) => {
    const r = parsePythonCalls(src, 0, true);
    if (!r.ok) throw new Error(r.error);
    return { calls: r.calls.map((c) => [c.name, c.args, c.truncated === true]), cutShort: r.cutShort };
  };

  it('closes what the cut left open, keeping what was written before it', () => {
    expect(repaired('[get_weather(city="Par')).toEqual({
      calls: [['get_weather', { city: 'Par' }, true]],
      cutShort: true,
    });
    expect(repaired('[f(a=[1, 2')).toEqual({ calls: [['f', { a: [1, 2] }, true]], cutShort: true });
    expect(repaired('[f(a={"k": 1, "j"')).toEqual({ calls: [['f', { a: { k: 1 } }, true]], cutShort: true });
    expect(repaired('[f(a=1, b=')).toEqual({ calls: [['f', { a: 1 }, true]], cutShort: true });
    expect(repaired('[f(a=1, b')).toEqual({ calls: [['f', { a: 1 }, true]], cutShort: true });
    expect(repaired('[f(a=-')).toEqual({ calls: [['f', {}, true]], cutShort: true });
    expect(repaired('[f(d=datetime.date(2024, 1')).toEqual({
      calls: [['f', { d: 'datetime.date(2024, 1' }, true]],
      cutShort: true,
    });
  });

  it('complete calls stay complete: only the list was cut, or a call cut before its ( is dropped', () => {
    expect(repaired('[f(a=1), g(b=2)')).toEqual({
      calls: [
        ['f', { a: 1 }, false],
        ['g', { b: 2 }, false],
      ],
      cutShort: true,
    });
    expect(repaired('[f(a=1), g.h')).toEqual({ calls: [['f', { a: 1 }, false]], cutShort: true });
    expect(repaired('[f(a=1)]')).toEqual({ calls: [['f', { a: 1 }, false]], cutShort: false });
  });

  it('forgives only the end of the text: a syntax error before it still fails', () => {
    expect(parsePythonCalls('[f(a=1 b=2', 0, true).ok).toBe(false);
    expect(parsePythonCalls('[f(a=["x")', 0, true).ok).toBe(false);
    expect(parsePythonCalls('[', 0, true).ok).toBe(false);
  });
});

/** Real replies from BFCL's recorded prompt-mode results (see /work/shared/data/bfcl/PROVENANCE.md). */
const RECORDED = '/work/shared/data/bfcl/recorded';

describe.skipIf(!existsSync(RECORDED))('recorded BFCL replies', () => {
  const rows = readdirSync(RECORDED).flatMap((model) =>
    readdirSync(join(RECORDED, model))
      .filter((f) => f.endsWith('.jsonl') && f !== 'irrelevance.jsonl')
      .flatMap((f) =>
        readFileSync(join(RECORDED, model, f), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map(
            (l) => JSON.parse(l) as { id: string; raw: string; bfcl_valid: boolean; bfcl_error_type: string | null },
          ),
      ),
  );

  it('every reply BFCL decoded (valid, or failed on values) yields python calls', () => {
    const decoded = rows.filter(
      (r) =>
        r.raw.trim() !== '[]' && (r.bfcl_valid || (r.bfcl_error_type && !r.bfcl_error_type.startsWith('ast_decoder'))),
    );
    expect(decoded.length).toBeGreaterThan(1500);
    const missed = decoded.filter(
      (r) => parseResponse({ text: r.raw, toolCalls: [] }, 'python-call').calls.length === 0,
    );
    expect(missed.map((r) => [r.id, r.raw.slice(0, 120)])).toEqual([]);
  });
});

describe('an unbracketed call followed by an end-of-turn token', () => {
  it('ends at its closing parenthesis, so the trailing token is seen as trailing', () => {
    const r = parseResponse(
      { text: 'cmd_controller.execute(command="dir Desktop")<end_of_turn>', toolCalls: [] },
      'python-call',
    );
    expect(r.calls.map((c) => [c.name, c.args])).toEqual([['cmd_controller.execute', { command: 'dir Desktop' }]]);
  });
});
