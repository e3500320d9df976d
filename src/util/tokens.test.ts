import { describe, expect, it } from 'vitest';
import type { RenderedRequest } from '../contracts/renderer.js';
import { countTokens, requestTokens } from './tokens.js';

describe('countTokens (o200k_base)', () => {
  it('counts known strings exactly', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    // Chinese text from case study 000 is several tokens, not one per character.
    const zh = countTokens('帮我读取 test.xlsx 文件的 Sheet1 工作表的内容');
    expect(zh).toBeGreaterThan(5);
    expect(zh).toBeLessThan(30);
  });

  it('treats special-token text as ordinary text instead of throwing', () => {
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('is additive-ish: a longer prompt has more tokens', () => {
    expect(countTokens('Available tools: a, b, c'.repeat(10))).toBeGreaterThan(countTokens('Available tools: a, b, c'));
  });
});

describe('requestTokens', () => {
  const base: RenderedRequest = {
    system: 'You are a helpful assistant.',
    messages: [{ role: 'user', content: 'Read test.xlsx' }],
    protocol: 'xml-tags',
  };

  it('sums system and messages', () => {
    expect(requestTokens(base)).toBe(countTokens(base.system) + countTokens('Read test.xlsx'));
  });

  it('adds the JSON of native tools', () => {
    const withTools: RenderedRequest = {
      ...base,
      protocol: 'native',
      tools: [
        {
          name: 'read_data_from_excel',
          description: 'Read data from Excel worksheet',
          parameters: { type: 'object', properties: { filepath: { type: 'string' } }, required: ['filepath'] },
          target: { server: 'excel', tool: 'read_data_from_excel' },
        },
      ],
    };
    const extra = requestTokens(withTools) - requestTokens(base);
    expect(extra).toBeGreaterThan(10);
    // `target` is harness bookkeeping, never sent to a model: it is not counted.
    expect(extra).toBe(
      countTokens(
        JSON.stringify(
          withTools.tools?.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
        ),
      ),
    );
  });
});
