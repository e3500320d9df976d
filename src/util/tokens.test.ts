import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RenderedRequest } from '../contracts/renderer.js';
import { packageRoot } from './package-root.js';
import { countTokens, o200kFromPackage, o200kFromRanksFile, requestTokens } from './tokens.js';

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

describe('the o200k table shipped as JSON (scripts/o200k-ranks.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-ranks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'o200k_base.ranks.json');
  execFileSync(process.execPath, [join(packageRoot(), 'scripts', 'o200k-ranks.mjs'), file]);
  const texts = [
    'hello world',
    '  leading spaces,\ttabs\n\n\nand blank lines  ',
    'function f(x) { return x?.y ?? [1, 2, 3].map((n) => n ** 2); }',
    JSON.stringify({ name: 'read_data_from_excel', parameters: { type: 'object', required: ['filepath'] } }),
    '帮我读取 test.xlsx 文件的 Sheet1 工作表的内容',
    '東京の天気は？ 서울 날씨는 어때요? Привет, как дела? مرحبا بالعالم שלום',
    'emoji: 👍🏽 👨‍👩‍👧‍👦 🇫🇷 ❤️ 🤖🤖🤖',
    'combining: e\u0301 a\u0308 ñ; Ω ≈ ∑ ∞; ｆｕｌｌｗｉｄｔｈ',
    'special-token text <|endoftext|> <|im_start|>user<|im_sep|>',
    'a lone surrogate \ud83d and bytes \u0000\u0001\u007f',
    '1234567890 3.14159 1e-9 0xdeadBEEF',
    'x'.repeat(5000),
    'The quick brown fox '.repeat(200),
  ];

  it("counts exactly as the package's own module, over varied text", () => {
    const fromFile = o200kFromRanksFile(file);
    expect(fromFile).toBeDefined();
    const own = o200kFromPackage();
    for (const text of texts) {
      expect(fromFile?.countTokens(text, { disallowedSpecial: new Set() }), text.slice(0, 40)).toBe(
        own.countTokens(text, { disallowedSpecial: new Set() }),
      );
    }
    expect(texts.map((t) => countTokens(t))).toEqual(
      texts.map((t) => own.countTokens(t, { disallowedSpecial: new Set() })),
    );
  });

  it('is not used when taken from another version of the package, or missing (the module is)', () => {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { source: string; ranks: unknown[] };
    const stale = join(dir, 'stale.json');
    writeFileSync(stale, JSON.stringify({ ...data, source: 'gpt-tokenizer@0.0.1 bpeRanks/o200k_base' }));
    expect(o200kFromRanksFile(stale)).toBeUndefined();
    expect(o200kFromRanksFile(join(dir, 'missing.json'))).toBeUndefined();
    writeFileSync(stale, '{"source": 1}');
    expect(o200kFromRanksFile(stale)).toBeUndefined();
  });
});
