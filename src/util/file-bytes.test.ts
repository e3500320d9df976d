import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileBytes } from './file-bytes.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-file-bytes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FileBytes: a large file read through a window', () => {
  // Lines of varied length, multi-byte characters across window edges, a needle only near the end.
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}: ${'é☀'.repeat(i % 13)}${'x'.repeat(i % 97)}`);
  const text = `${lines.join('\n')}\nthe needle: tags\n`;
  const file = join(dir, 'big.txt');
  writeFileSync(file, text);
  const bytes = Buffer.from(text);

  it('gives the bytes, line ends and decoded ranges of the file', () => {
    const f = new FileBytes(file);
    try {
      expect(f.length).toBe(bytes.length);
      for (const i of [0, 1, 65_535, 65_536, 65_537, 200_000, bytes.length - 1]) expect(f.code(i)).toBe(bytes[i]);
      expect(f.code(bytes.length)).toBeNaN();
      let pos = 0;
      for (let n = 0; pos < bytes.length; n++) {
        const end = f.lineEnd(pos);
        expect(end).toBe(bytes.indexOf(10, pos));
        if (n % 997 === 0) expect(f.text(pos, end)).toBe(bytes.toString('utf8', pos, end));
        pos = end + 1;
      }
      expect(f.text(0, bytes.length)).toBe(text);
      expect(f.includes('needle: tags')).toBe(true);
      expect(f.includes('no such text')).toBe(false);
    } finally {
      f.close();
    }
  });
});
