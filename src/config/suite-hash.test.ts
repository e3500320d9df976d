import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { suiteFileHash } from './suite-hash.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-suite-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hashOfFile(name: string, text: string): string | undefined {
  const file = join(dir, name);
  writeFileSync(file, text);
  return suiteFileHash(file);
}

describe('suiteFileHash', () => {
  it('is the SHA-256 of the text with CRLF read as LF, across chunk boundaries, a lone CR kept', () => {
    const lf = `${'name: s\n'.repeat(200_000)}cases: []\n`; // over a 1 MiB chunk
    const expected = createHash('sha256').update(lf).digest('hex').slice(0, 16);
    expect(hashOfFile('lf.yaml', lf)).toBe(expected);
    expect(hashOfFile('crlf.yaml', lf.replaceAll('\n', '\r\n'))).toBe(expected);
    // a CR that ends the first chunk, before its LF
    const split = `${'x'.repeat((1 << 20) - 1)}\r\n`;
    expect(hashOfFile('split.yaml', split)).toBe(
      createHash('sha256')
        .update(`${'x'.repeat((1 << 20) - 1)}\n`)
        .digest('hex')
        .slice(0, 16),
    );
    expect(hashOfFile('cr.yaml', 'a\rb')).not.toBe(hashOfFile('ab.yaml', 'ab'));
    expect(hashOfFile('cr-end.yaml', 'a\r')).not.toBe(hashOfFile('a.yaml', 'a'));
  });
});
