import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { lineBatches } from './line-batches.js';

const tempDir = useTempDirs();

const dir = tempDir('tg-lines-');

async function viaReadline(file: string): Promise<string[]> {
  const out: string[] = [];
  const rl = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of rl) out.push(line);
  return out;
}

async function viaBatches(file: string): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of lineBatches(file)) out.push(...batch);
  return out;
}

describe('lineBatches splits like node:readline', () => {
  const CHUNK = 1 << 20;
  const cases: Record<string, string> = {
    empty: '',
    'no final break': 'a\nb',
    'final break': 'a\nb\n',
    'blank lines': '\n\na\n\n',
    crlf: 'a\r\nb\r\n',
    'lone cr': 'a\rb\r\rc',
    'cr at the end': 'a\r',
    'crlf across the chunk boundary': `${'x'.repeat(CHUNK - 1)}\r\ny\r\n`,
    'lf after a chunk that ends in cr': `${'x'.repeat(CHUNK - 2)}\r\r\nz`,
    'multi-byte text across the boundary': `${'x'.repeat(CHUNK - 1)}é漢\n字\n`,
    'a line longer than a chunk': `${'y'.repeat(CHUNK * 2 + 7)}\nend`,
  };
  for (const [name, text] of Object.entries(cases)) {
    it(name, async () => {
      const file = join(dir, `${name.replaceAll(' ', '-')}.txt`);
      writeFileSync(file, text);
      expect(await viaBatches(file)).toEqual(await viaReadline(file));
    });
  }
});

describe('lineBatches and a byte order mark', () => {
  it('drops a UTF-8 BOM at the start of the file, and only there', async () => {
    const file = join(dir, 'bom.jsonl');
    writeFileSync(file, '\ufeff{"case":"a"}\r\n\ufeffx\n');
    expect(await viaBatches(file)).toEqual(['{"case":"a"}', '\ufeffx']);
  });
});
