import { closeSync, openSync, writeSync } from 'node:fs';

const SIZE = 256 * 1024;

/**
 * A file written with synchronous, batched writes: `write` UTF-8-encodes its text straight into a 256 KiB buffer
 * that goes out in one syscall when full and at `close`. Hand-written rather than a fs.WriteStream because the report
 * writers are fed one record at a time from the runner's hot loop, where a stream's per-chunk promise/callback
 * machinery and back-pressure bookkeeping cost more than the writing; encoding at once (rather than joining strings
 * at flush time) keeps the garbage small and short-lived. Memory stays bounded by the buffer.
 */
export class BufferedFile {
  private fd: number | undefined;
  private readonly buf = Buffer.allocUnsafe(SIZE);
  private used = 0;
  /** Bytes written so far (flushed or not), UTF-8. */
  bytes = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  write(text: string): void {
    if (this.fd === undefined) throw new Error(`${this.file} is closed`);
    // worst case 3 bytes per UTF-16 unit
    const room = text.length * 3;
    if (this.used + room > SIZE) {
      this.flush();
      if (room > SIZE) {
        const bytes = Buffer.from(text, 'utf8');
        this.writeAll(bytes);
        this.bytes += bytes.length;
        return;
      }
    }
    const written = this.buf.write(text, this.used, 'utf8');
    this.used += written;
    this.bytes += written;
  }

  flush(): void {
    if (this.fd === undefined || this.used === 0) return;
    this.writeAll(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
  }

  private writeAll(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length) at += writeSync(this.fd as number, bytes, at, bytes.length - at);
  }
}
