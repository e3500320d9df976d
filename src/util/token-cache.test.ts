import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenCache } from './token-cache.js';
import { TokenCounter } from './token-counter.js';
import { countTokens } from './tokens.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tg-token-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('token count cache', () => {
  it('keeps counts across runs, by hash only, and answers known texts without counting', () => {
    const file = join(dir, 'counts.json');
    const first = new TokenCounter(new TokenCache(file));
    const texts = ['hello world', '帮我读取 test.xlsx 文件的 Sheet1 工作表的内容', 'x'.repeat(3000)];
    for (const t of texts) expect(first.count(t)).toBe(countTokens(t));
    first.save();
    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toContain('hello');
    const cache = new TokenCache(file);
    expect(cache.size).toBe(3);
    // A known text is answered from the cache (no tokenizer).
    const second = new TokenCounter(cache);
    for (const t of texts) expect(second.count(t)).toBe(countTokens(t));
  });

  it('treats a corrupt or foreign file as empty, and a failed write as harmless', () => {
    const file = join(dir, 'counts.json');
    writeFileSync(file, '{"format":"something-else","counts":{"a":1}}');
    expect(new TokenCache(file).size).toBe(0);
    writeFileSync(file, '{not json');
    const cache = new TokenCache(file);
    expect(cache.size).toBe(0);
    cache.set(TokenCache.keyOf('hi'), 1);
    cache.save();
    expect(new TokenCache(file).get(TokenCache.keyOf('hi'))).toBe(1);
    const unwritable = new TokenCache(join(file, 'under-a-file', 'counts.json'));
    unwritable.set('k', 2);
    expect(() => unwritable.save()).not.toThrow();
  });

  it('lives in $XDG_CACHE_HOME/toolgauge or TOOLGAUGE_CACHE_DIR, and is off with TOOLGAUGE_CACHE_DIR=off', () => {
    const saved = { dir: process.env.TOOLGAUGE_CACHE_DIR, xdg: process.env.XDG_CACHE_HOME };
    const write = () => {
      const c = TokenCache.open();
      c?.set('k', 1);
      c?.save();
    };
    try {
      process.env.XDG_CACHE_HOME = join(dir, 'xdg');
      process.env.TOOLGAUGE_CACHE_DIR = 'off';
      expect(TokenCache.open()).toBeNull();
      write();
      expect(existsSync(join(dir, 'xdg'))).toBe(false);
      delete process.env.TOOLGAUGE_CACHE_DIR;
      write();
      expect(existsSync(join(dir, 'xdg', 'toolgauge', 'token-counts-o200k.json'))).toBe(true);
      process.env.TOOLGAUGE_CACHE_DIR = join(dir, 'own');
      write();
      expect(JSON.parse(readFileSync(join(dir, 'own', 'token-counts-o200k.json'), 'utf8')).counts).toEqual({ k: 1 });
    } finally {
      for (const [k, v] of [
        ['TOOLGAUGE_CACHE_DIR', saved.dir],
        ['XDG_CACHE_HOME', saved.xdg],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
