import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { BufferedFile } from '../../util/buffered-file.js';
import { writeAllSync } from '../../util/write-file.js';

/** Temporary files a writer assembles its report from, removed once it is written (or discarded). */
export class PartFiles {
  private readonly files: BufferedFile[] = [];
  private closed = false;

  constructor(private readonly runDir: string) {}

  open(name: string): BufferedFile {
    const file = new BufferedFile(join(this.runDir, name));
    this.files.push(file);
    return file;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const f of this.files) f.close();
  }

  remove(): void {
    this.closed = true;
    for (const f of this.files) f.discard();
  }
}

/** Copies `file` (its first `limit` bytes) to the end of the open file `fd`, 1 MiB at a time. */
export function appendFile(fd: number, file: string, limit = Number.POSITIVE_INFINITY): void {
  const buf = Buffer.allocUnsafe(1 << 20);
  const src = openSync(file, 'r');
  try {
    let copied = 0;
    while (copied < limit) {
      const n = readSync(src, buf, 0, Math.min(buf.length, limit - copied), copied);
      if (n === 0) break;
      writeAllSync(fd, buf.subarray(0, n));
      copied += n;
    }
  } finally {
    closeSync(src);
  }
}
