import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;
const CR = 0x0d;
const LF = 0x0a;

/**
 * What a suite file holds, as the baseline's config hash takes it: the first 16 hex digits of the SHA-256 of its
 * bytes with Windows line endings read as `\n` (a checkout with `core.autocrlf` holds the same suite). Read a chunk at
 * a time: a suite of 100,000 cases is never in memory whole for it. Undefined when the file cannot be read (a suite
 * given as data, not a file).
 */
export function suiteFileHash(file: string): string | undefined {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  // a CR at the end of a chunk: written once the next byte shows it does not start a CRLF
  let pendingCr = false;
  try {
    for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null)) {
      let chunk = buf.subarray(0, n);
      if (pendingCr && chunk[0] !== LF) hash.update(Buffer.from([CR]));
      pendingCr = false;
      if (chunk[chunk.length - 1] === CR) {
        pendingCr = true;
        chunk = chunk.subarray(0, chunk.length - 1);
      }
      let from = 0;
      for (let at = chunk.indexOf(CR); at >= 0; at = chunk.indexOf(CR, at + 1)) {
        if (chunk[at + 1] !== LF) continue;
        hash.update(chunk.subarray(from, at));
        from = at + 1;
      }
      hash.update(chunk.subarray(from));
    }
    if (pendingCr) hash.update(Buffer.from([CR]));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The content hash of each suite that can be read, by suite name (a run header's `suiteHashes`). */
export function suiteHashes(suites: readonly { file: string; suite: { name: string } }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of suites) {
    const hash = suiteFileHash(s.file);
    if (hash !== undefined) out[s.suite.name] = hash;
  }
  return out;
}
