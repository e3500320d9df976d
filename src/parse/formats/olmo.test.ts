import { describe, expect, it } from 'vitest';
import { acceptedCalls, parseResponse } from '../index.js';

const parse = (text: string) => parseResponse({ text, toolCalls: [] }, 'xml-tags');
const summary = (text: string) =>
  parse(text).calls.map((c) => ({ name: c.name, args: c.args, via: c.via, truncated: c.truncated === true }));
const attempts = (text: string) =>
  parse(text).diagnostics.filter((d) => d.code === 'wrong-shape' || d.code === 'unparseable-arguments');

const block = (...lines: string[]) => `<function_calls>\n${lines.join('\n')}\n</function_calls>`;

describe('OLMo 3 <function_calls> with python calls', () => {
  it('one call between prose', () => {
    const r = parse(`Searching the catalogue.\n${block('find_books(author="Le Guin", limit=5)')}\nResults follow.`);
    expect(r.calls).toMatchObject([
      { name: 'find_books', args: { author: 'Le Guin', limit: 5 }, via: 'olmo', repaired: false },
    ]);
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.calls[0]?.rawArgs).toBe('author="Le Guin", limit=5');
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
    expect(acceptedCalls(r, 'python-call')).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });

  it("one call per line; JSON's true / false / null are read as the literals, strings keep their words", () => {
    expect(
      summary(
        block(
          'find_books(author="Butler", available=true, series=null)',
          "reserve_book(isbn='978-0', notify=False, note='true or null', opts={\"express\": false})",
        ),
      ),
    ).toEqual([
      { name: 'find_books', args: { author: 'Butler', available: true, series: null }, via: 'olmo', truncated: false },
      {
        name: 'reserve_book',
        args: { isbn: '978-0', notify: false, note: 'true or null', opts: { express: false } },
        via: 'olmo',
        truncated: false,
      },
    ]);
  });

  it('the raw arguments are as written, JSON literals included', () => {
    expect(parse(block('find_books(available=true)')).calls[0]?.rawArgs).toBe('available=true');
  });

  it('a bracketed call list in the block is read too', () => {
    expect(summary(block('[find_books(author="Jemisin"), find_books(author="Wells")]')).map((c) => c.args)).toEqual([
      { author: 'Jemisin' },
      { author: 'Wells' },
    ]);
  });

  it('after a <think> block a call; inside one a call-in-think diagnostic and no call', () => {
    const call = block('find_books(author="Okorafor")');
    expect(summary(`<think>The user wants Okorafor's novels.</think>\n${call}`)).toEqual([
      { name: 'find_books', args: { author: 'Okorafor' }, via: 'olmo', truncated: false },
    ]);
    const inside = parse(`<think>${call}</think>I already know two of her novels.`);
    expect(inside.calls).toEqual([]);
    expect(inside.diagnostics.map((d) => d.code)).toEqual(['call-in-think']);
  });

  it('a block cut off mid-argument: the cut call truncated and repaired; cut after a whole call: truncated only', () => {
    const r = parse('<function_calls>\nfind_books(author="Tolkien")\nreserve_book(isbn="978-1", note="before fri');
    expect(r.calls.map((c) => [c.name, c.args, c.truncated === true, c.repaired])).toEqual([
      ['find_books', { author: 'Tolkien' }, false, false],
      ['reserve_book', { isbn: '978-1', note: 'before fri' }, true, true],
    ]);
    expect(summary('<function_calls>\nfind_books(author="Tolkien")\n')).toEqual([
      { name: 'find_books', args: { author: 'Tolkien' }, via: 'olmo', truncated: true },
    ]);
  });

  it('a body that opens like a call but does not parse is an unparseable attempt', () => {
    const r = parse(block('find_books(author="Ende" limit=2)'));
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unparseable-arguments']);
  });

  it('an invoke after an OLMo block does not make the block Anthropic-style', () => {
    const r = parse(
      `${block('find_books(author="Rowling")')}\nand\n<invoke name="find_books">\n<parameter name="author">Gaiman</parameter>\n</invoke>`,
    );
    expect(r.calls.map((c) => [c.args, c.via])).toEqual([
      [{ author: 'Rowling' }, 'olmo'],
      [{ author: 'Gaiman' }, 'invoke-xml'],
    ]);
  });

  it('a <function_calls> block with <invoke> inside is Anthropic-style markup, not OLMo', () => {
    const r = parse(
      '<function_calls>\n<invoke name="find_books">\n<parameter name="author">Pratchett</parameter>\n</invoke>\n</function_calls>',
    );
    expect(r.calls.map((c) => [c.name, c.args, c.via])).toEqual([
      ['find_books', { author: 'Pratchett' }, 'invoke-xml'],
    ]);
  });
});

describe('an OLMo block of a runaway reply', () => {
  it('is read up to 200 calls, and says where it stopped', () => {
    const r = parse(block(...Array.from({ length: 250 }, (_, i) => `find_books(page=${i})`)));
    expect(r.calls).toHaveLength(200);
    expect(r.calls[199]?.args).toEqual({ page: 199 });
    expect(r.diagnostics.filter((d) => d.code === 'other').map((d) => d.message)).toEqual([
      expect.stringContaining('OLMo <function_calls>: stopped reading at offset'),
    ]);
  });
});

describe('OLMo near-misses', () => {
  it('prose that names the tag is not a call, nor an attempt', () => {
    const prose = 'OLMo writes its calls inside <function_calls> and closes the list with </function_calls>.';
    expect(parse(prose).calls).toEqual([]);
    expect(attempts(prose)).toEqual([]);
    const open = 'Wrap every call in a <function_calls> block, one call per line.';
    expect(parse(open).calls).toEqual([]);
    expect(attempts(open)).toEqual([]);
  });

  it('a call introduced as an example is a quoted example', () => {
    const r = parse(`For example:\n${block('find_books(author="Atwood")')}`);
    expect(r.calls).toEqual([]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['quoted-example']);
  });
});
