import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { visible } from '../util/visible-text.js';
import { mdCode, mdText } from './markdown-text.js';

const md = new MarkdownIt({ html: true, linkify: false });

/** Every inline token of a rendered line, and the text a reader sees. */
function inline(src: string) {
  const tokens = md.parse(src, {});
  const children = tokens.flatMap((t) => t.children ?? []);
  return { blocks: tokens.map((t) => t.type), children };
}

// text rich in what Markdown acts on: punctuation, HTML, entities, links, fences, pipes, line breaks, controls
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\\', '`', '*', '_', '[', ']', '(', ')', '<', '>', '&', '|', '~', '#', '$', '!', '-', '+', '.'),
    fc.constantFrom('<img src=x onerror=alert(1)>', '&amp;', '[a](http://e.example)', '```', '\n# h', '\n', '\r', ' '),
    fc.constantFrom('\u001b', '\u0000', 'a', 'b_c', '1.', '名', '@', '@octocat', 'me@example.com', '@org/team'),
  ),
  maxLength: 30,
});

const flat = (s: string) => visible(s.replace(/\s+/g, ' ').trim());

/** A GitHub mention in rendered text: `@` not after a word character, then a letter or digit. */
const MENTION = /(?<![\p{L}\p{N}_])@[\p{L}\p{N}]/u;

describe('Markdown-safe text', () => {
  it('mdText: no element, link, emphasis, code, table break or @mention, and the reader sees the text itself', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const para = inline(`x ${mdText(s)} y`);
        expect(para.blocks).toEqual(['paragraph_open', 'inline', 'paragraph_close']);
        expect(para.children.map((t) => t.type).filter((t) => t !== 'text')).toEqual([]);
        const seen = para.children.map((t) => t.content).join('');
        // the reader sees the text itself, but for a zero-width space that keeps each @mention from pinging anyone
        expect(seen.replaceAll('\u200b', '')).toBe(`x ${flat(s)} y`.replace(/ +$/, ''));
        expect(seen).not.toMatch(MENTION);
        const table = md.parse(`| a | b |\n|---|---|\n| ${mdText(s)} | z |`, {});
        expect(table.filter((t) => t.type === 'td_open')).toHaveLength(2);
      }),
      { numRuns: 400 },
    );
  });

  it('mdCode: one code span holding exactly the text, whatever backticks it has', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const { blocks, children } = inline(`x ${mdCode(s)} y`);
        expect(blocks).toEqual(['paragraph_open', 'inline', 'paragraph_close']);
        const code = children.filter((t) => t.type === 'code_inline');
        expect(code).toHaveLength(1);
        expect(code[0]?.content).toBe(flat(s) || ' ');
        expect(children.filter((t) => t.type !== 'text' && t.type !== 'code_inline')).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('leaves ordinary names as they are', () => {
    for (const s of [
      'names-only',
      'sim:guesser',
      'excel/read-sheet-zh',
      'read_data_from_excel',
      'full-details (json)',
      'me@example.com',
    ]) {
      expect(mdText(s)).toBe(s);
    }
  });
});
