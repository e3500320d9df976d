import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Window size: below glibc's default mmap threshold (128 KiB), so it is plain heap memory. */
const WINDOW = 64 * 1024;

/**
 * A file read by position, through a small window, for a scan that moves forward over a large file (a 100,000-case
 * suite is ~24 MB) and then reads back a few ranges. The file is never one Buffer or one string: a Buffer that size
 * is one large block from malloc, and freeing it raises glibc's mmap and trim thresholds to its size for the rest of
 * the process, so up to twice as much freed memory is kept from the system (an eval's peak RSS grew by tens of MB at
 * 100,000 cases); a string that size can stay reachable from optimised code that saw it as a constant.
 */
export class FileBytes {
  readonly length: number;
  private readonly fd: number;
  private readonly window = Buffer.allocUnsafe(WINDOW);
  private from = 0;
  private to = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'r');
    try {
      this.length = fstatSync(this.fd).size;
    } catch (e) {
      closeSync(this.fd);
      throw e;
    }
  }

  /** The byte at `i` (NaN past the end). */
  code(i: number): number {
    if (i < this.from || i >= this.to) {
      if (i < 0 || i >= this.length) return Number.NaN;
      this.load(i);
    }
    return this.window[i - this.from] as number;
  }

  /** The offset of the next `\n` at or after `pos`, or the length. */
  lineEnd(pos: number): number {
    for (let at = pos; at < this.length; ) {
      if (at < this.from || at >= this.to) {
        this.load(at);
        if (this.to <= at) break; // the file got shorter
      }
      const nl = this.window.subarray(0, this.to - this.from).indexOf(10, at - this.from);
      if (nl >= 0) return this.from + nl;
      at = this.to;
    }
    return this.length;
  }

  /** Bytes [start, end) decoded as UTF-8. */
  text(start: number, end: number): string {
    const out = Buffer.allocUnsafe(Math.max(0, end - start));
    let got = 0;
    while (got < out.length) {
      const n = readSync(this.fd, out, got, out.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return out.toString('utf8', 0, got);
  }

  /** Whether the file holds `needle` (ASCII) anywhere. */
  includes(needle: string): boolean {
    for (let at = 0; at < this.length; ) {
      this.load(at);
      if (this.to <= at) return false; // the file got shorter
      if (this.window.subarray(0, this.to - this.from).includes(needle, 0, 'latin1')) return true;
      if (this.to >= this.length) return false;
      at = this.to - (needle.length - 1);
    }
    return false;
  }

  close(): void {
    closeSync(this.fd);
  }

  private load(at: number): void {
    this.from = at;
    this.to = at + readSync(this.fd, this.window, 0, WINDOW, at);
  }
}
