import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-helpers.js';

const DOC = 'docs/reliability.md';

/**
 * The tests docs/reliability.md names: `file.test.ts` › "title"; "title"… (a title as its file writes it, or the
 * part of it written literally). Only the file's text is read: no test file is loaded.
 */
function namedTests(markdown: string): Array<{ file: string; titles: string[] }> {
  return [...markdown.matchAll(/`([\w./-]+\.test\.ts)`(?:\s*›\s*((?:"[^"\n]+"(?:;\s*)?)+))?/g)].map((m) => ({
    file: m[1] as string,
    titles: [...(m[2] ?? '').matchAll(/"([^"\n]+)"/g)].map((t) => t[1] as string),
  }));
}

describe(`the tests ${DOC} names`, () => {
  it('exist: each file, and each title in its file', () => {
    const named = namedTests(readFileSync(join(ROOT, DOC), 'utf8'));
    expect(named.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const { file, titles } of named) {
      const path = join(ROOT, file);
      if (!existsSync(path)) {
        missing.push(`${file} (no such file)`);
        continue;
      }
      const text = readFileSync(path, 'utf8');
      for (const title of titles) if (!text.includes(title)) missing.push(`${file} › "${title}"`);
    }
    expect(missing).toEqual([]);
  });
});
