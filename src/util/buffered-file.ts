import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface BufferedFileOptions {
  /** Buffer size in bytes (default 256 KiB). */
  size?: number;
  /** `append` continues an existing file (a resumed run log). */
  mode?: 'create' | 'append';
}

/**
 * A file written with synchronous, batched writes: `write` UTF-8-encodes its text straight into a buffer that goes
 * out in one syscall when full, at `flush` and at `close`. Hand-written rather than a fs.WriteStream because the run
 * log and the report writers are fed one record at a time from the runner's hot loop, where a stream's per-chunk
 * promise/callback machinery and back-pressure bookkeeping cost more than the writing; encoding at once (rather
 * than joining strings at flush time) keeps the garbage small and short-lived. One `write` never straddles two
 * flushes unless it alone exceeds the buffer, so a line written in one call is on disk whole or not at all. Memory
 * stays bounded by the buffer.
 */
export class BufferedFile {
  private fd: number | undefined;
  private readonly buf: Buffer;
  private used = 0;
  /** Bytes written so far (flushed or not), UTF-8. */
  bytes = 0;

  constructor(
    readonly file: string,
    options: BufferedFileOptions = {},
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, options.mode === 'append' ? 'a' : 'w');
    this.buf = Buffer.allocUnsafe(options.size ?? 256 * 1024);
  }

  /** Appends `text`, and a line feed when `newline` (without building a second string of the line). */
  write(text: string, newline = false): void {
    if (this.fd === undefined) throw new Error(`${this.file} is closed`);
    // worst case 3 bytes per UTF-16 unit
    const room = text.length * 3 + (newline ? 1 : 0);
    if (this.used + room > this.buf.length) {
      this.flush();
      if (room > this.buf.length) {
        const bytes = Buffer.from(newline ? `${text}\n` : text, 'utf8');
        this.writeAll(bytes);
        this.bytes += bytes.length;
        return;
      }
    }
    const start = this.used;
    this.used += this.buf.write(text, this.used, 'utf8');
    if (newline) this.buf[this.used++] = 10;
    this.bytes += this.used - start;
  }

  flush(): void {
    if (this.fd === undefined || this.used === 0) return;
    this.writeAll(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  /** Flushes and closes; `fsync` first makes the content durable (the run log). */
  close(fsync = false): void {
    if (this.fd === undefined) return;
    this.flush();
    if (fsync) fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }

  private writeAll(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length) at += writeSync(this.fd as number, bytes, at, bytes.length - at);
  }
}
