import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makeFolder } from './output-folder.js';
import { writeFailed } from './write-failure.js';

/**
 * Writes a whole file under a hidden temporary name beside it, then renames it into place: a file is never left
 * half-written (a full disk leaves the previous version, or nothing). `write` gets the descriptor to write to. A
 * failure removes the temporary file and throws WRITE_FAILED naming the file.
 */
export function writeFileWhole(file: string, write: string | ((fd: number) => void)): void {
  const temp = join(dirname(file), `.${basename(file)}.part`);
  let fd: number | undefined;
  try {
    makeFolder(dirname(file));
    fd = openSync(temp, 'w');
    if (typeof write === 'string') writeAllSync(fd, write);
    else write(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (e) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {}
    }
    rmSync(temp, { force: true });
    throw writeFailed(file, e);
  }
}

/** Writes all of `text` (writeSync may write less than asked, e.g. on a pipe). */
export function writeAllSync(fd: number, text: string | Buffer): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}
