import { closeSync, openSync, writeSync } from 'node:fs';

const FLUSH_AT = 256 * 1024;

/**
 * A file written with synchronous, batched writes: `write` appends to an in-memory buffer that goes out in one
 * syscall every 256 KiB. Hand-written rather than a fs.WriteStream because the report writers are fed one record at
 * a time from the runner's hot loop, where a stream's per-chunk promise/callback machinery and back-pressure
 * bookkeeping cost more than the writing; memory stays bounded by the buffer size.
 */
export class BufferedFile {
  private fd: number | undefined;
  private chunks: string[] = [];
  private pending = 0;
  /** Bytes written so far (flushed or not), UTF-8. */
  bytes = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  write(text: string): void {
    if (this.fd === undefined) throw new Error(`${this.file} is closed`);
    this.chunks.push(text);
    this.pending += text.length;
    this.bytes += Buffer.byteLength(text);
    if (this.pending >= FLUSH_AT) this.flush();
  }

  flush(): void {
    if (this.fd === undefined || this.chunks.length === 0) return;
    const text = this.chunks.length === 1 ? (this.chunks[0] as string) : this.chunks.join('');
    this.chunks = [];
    this.pending = 0;
    writeSync(this.fd, text);
  }

  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
  }
}
