import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ToolgaugeError } from '../errors.js';
import { makeFolder } from './output-folder.js';
import { writeFailed } from './write-failure.js';

export interface BufferedFileOptions {
  /** Buffer size in bytes (default 256 KiB). */
  size?: number;
  /** `append` continues an existing file (a resumed run log). */
  mode?: 'create' | 'append';
  /**
   * The file is written under a hidden temporary name beside it and renamed into place by `close`, so a reader (or a
   * failure half-way) never sees it partly written, and a previous version stays whole until then. `discard` (or a
   * failed write) removes the temporary file.
   */
  replace?: boolean;
  /**
   * The file is lines: when a write fails part-way (a full disk), the file is cut back to the end of the last whole
   * line on disk, so it ends on a whole line (the run log).
   */
  wholeLines?: boolean;
}

/**
 * A file written with synchronous, batched writes: `write` UTF-8-encodes its text straight into a buffer that goes
 * out in one syscall when full, at `flush` and at `close`. Hand-written rather than a fs.WriteStream because the run
 * log and the report writers are fed one record at a time from the runner's hot loop, where a stream's per-chunk
 * promise/callback machinery and back-pressure bookkeeping cost more than the writing; encoding at once (rather
 * than joining strings at flush time) keeps the garbage small and short-lived. One `write` never straddles two
 * flushes unless it alone exceeds the buffer, so a line written in one call is on disk whole or not at all. Memory
 * stays bounded by the buffer.
 *
 * A write the system refuses (a full disk, a quota, an I/O error) throws a WRITE_FAILED error naming the file; the
 * file is then failed: every later `write`, `flush` or `close` throws that error again (`close` releases the file
 * first), and what was buffered is dropped.
 */
export class BufferedFile {
  private fd: number | undefined;
  private readonly buf: Buffer;
  private used = 0;
  /** Where the bytes go: the file, or its temporary name (`replace`). */
  private readonly path: string;
  /** The file's size on disk when opened, and the bytes written to it since. */
  private readonly start: number;
  private stored = 0;
  /** The failure that stopped the file, thrown again by every later call. */
  failure: ToolgaugeError | undefined;
  /** Bytes written so far (flushed or not), UTF-8. */
  bytes = 0;

  constructor(
    readonly file: string,
    private readonly options: BufferedFileOptions = {},
  ) {
    this.path = options.replace ? join(dirname(file), `.${basename(file)}.part`) : file;
    try {
      makeFolder(dirname(file));
      this.fd = openSync(this.path, options.mode === 'append' ? 'a' : 'w');
      this.start = options.mode === 'append' ? fstatSync(this.fd).size : 0;
    } catch (e) {
      if (this.fd !== undefined) closeSync(this.fd);
      throw writeFailed(file, e);
    }
    this.buf = Buffer.allocUnsafe(options.size ?? 256 * 1024);
  }

  /** The bytes this object has put on disk (flushed), a count from where the file stood when opened. */
  get flushedBytes(): number {
    return this.stored;
  }

  /** Appends `text`, and a line feed when `newline` (without building a second string of the line). */
  write(text: string, newline = false): void {
    if (this.failure) throw this.failure;
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
    if (this.failure) throw this.failure;
    if (this.fd === undefined || this.used === 0) return;
    const used = this.used;
    this.used = 0;
    this.writeAll(this.buf.subarray(0, used));
  }

  /**
   * Flushes and closes; `fsync` first makes the content durable (the run log). A `replace` file is renamed into
   * place. A failed file is released (its temporary file removed) and its failure thrown.
   */
  close(fsync = false): void {
    if (this.fd === undefined) {
      if (this.failure) throw this.failure;
      return;
    }
    try {
      this.flush();
      if (fsync) fsyncSync(this.fd);
      const fd = this.fd;
      this.fd = undefined;
      closeSync(fd);
      if (this.options.replace) renameSync(this.path, this.file);
    } catch (e) {
      this.failure ??= writeFailed(this.file, e);
      this.release();
      throw this.failure;
    }
  }

  /** Closes without writing what is buffered, and removes the file (or, for `replace`, its temporary file). */
  discard(): void {
    this.used = 0;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {}
      this.fd = undefined;
    }
    rmSync(this.path, { force: true });
  }

  /** After a failure: the descriptor closed, a `replace` file's temporary file removed; never throws. */
  private release(): void {
    this.used = 0;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {}
      this.fd = undefined;
    }
    if (this.options.replace) rmSync(this.path, { force: true });
  }

  private writeAll(bytes: Buffer): void {
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(this.fd as number, bytes, at, bytes.length - at);
      this.stored += at;
    } catch (e) {
      this.fail(e, bytes, at);
    }
  }

  /** A write refused after `at` bytes of `bytes` went to disk: cut back to a whole line (`wholeLines`), then fail. */
  private fail(e: unknown, bytes: Buffer, at: number): never {
    let kept = at;
    if (this.options.wholeLines && at > 0) kept = bytes.subarray(0, at).lastIndexOf(10) + 1;
    if (kept !== at) {
      try {
        ftruncateSync(this.fd as number, this.start + this.stored + kept);
      } catch {
        kept = at; // the torn line stays: a reader skips a torn last line
      }
    }
    this.stored += kept;
    this.failure = writeFailed(this.file, e);
    this.release();
    throw this.failure;
  }
}
