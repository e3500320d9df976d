import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { jsonText } from '../util/json-text.js';
import { writeFailed } from '../util/write-failure.js';
import { RunFooterSchema, type RunGate } from './schema.js';

/** A footer line is ~100 bytes, and a few KB with the gate: the tail read to find it. */
const TAIL_BYTES = 64 * 1024;

/**
 * Writes the gate's verdict into the footer of a finished run log (its last line), so `toolgauge report` can write
 * junit.xml and summary.md as the command that judged the run did. The log is append-only until then: its footer is
 * written when the run ends, before the gate is judged. The last line is replaced in place (cut, then written again
 * with `gate`, then fsynced). If the new line cannot be written (a full disk), the old footer is put back (it is
 * shorter than what the cut freed) and false returned: the log is as it was, only `report` will lack the verdict; a
 * failure to put it back is thrown (the log then reads as a run killed after its last case). A log that does not end
 * with a footer (a killed run) is left as it is. Returns whether the footer now holds the gate.
 */
export function recordGate(file: string, gate: RunGate): boolean {
  const fd = openSync(file, 'r+');
  try {
    const size = fstatSync(fd).size;
    const from = Math.max(0, size - TAIL_BYTES);
    const tail = Buffer.alloc(size - from);
    readSync(fd, tail, 0, tail.length, from);
    if (tail.length === 0 || tail[tail.length - 1] !== 0x0a) return false;
    const start = tail.lastIndexOf(0x0a, tail.length - 2) + 1;
    if (start === 0 && from > 0) return false; // a last line longer than the tail: no footer
    const old = tail.subarray(start);
    let footer: unknown;
    try {
      footer = JSON.parse(old.toString('utf8'));
    } catch {
      return false;
    }
    const parsed = RunFooterSchema.safeParse(footer);
    if (!parsed.success) return false;
    const line = Buffer.from(`${jsonText({ ...(footer as object), gate })}\n`, 'utf8');
    const at = from + start;
    try {
      ftruncateSync(fd, at);
      writeSync(fd, line, 0, line.length, at);
      fsyncSync(fd);
    } catch (e) {
      try {
        ftruncateSync(fd, at);
        writeSync(fd, old, 0, old.length, at);
        fsyncSync(fd);
      } catch {
        // the footer is lost: the log reads as a run killed after its last case, which --resume finishes
        throw writeFailed(file, e);
      }
      return false; // the log is as it was
    }
    return true;
  } finally {
    closeSync(fd);
  }
}
