import { ToolgaugeError } from '../errors.js';
import { displayPath } from './display-path.js';

/** What a file-system error code means, in words (the code follows in parentheses). */
const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'the file is larger than this file system allows',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EIO: 'input/output error',
  ENOTDIR: 'a file is in the way of a folder',
  EISDIR: 'a folder is in the way',
  ENOENT: 'the file system there does not hold files of ours',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
};

/** The code of a file-system error (`ENOSPC`…), or undefined for anything else. */
export function errnoCode(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** `no space left on the device (ENOSPC)`, or the error's own message. */
export function failureReason(e: unknown): string {
  const code = errnoCode(e);
  if (code) return `${REASONS[code] ?? 'the system refused'} (${code})`;
  return e instanceof Error ? e.message : String(e);
}

/** Whether `e` is a failure to write a file (a WRITE_FAILED error, or a file-system error with a code). */
export function isWriteFailure(e: unknown): boolean {
  return (e instanceof ToolgaugeError && e.code === 'WRITE_FAILED') || errnoCode(e) !== undefined;
}

/**
 * The WRITE_FAILED error of a file that could not be written: `cannot write reports/x/run.jsonl: no space left on the
 * device (ENOSPC)`. An error that is one already is returned as it is.
 */
export function writeFailed(file: string, e: unknown): ToolgaugeError {
  if (e instanceof ToolgaugeError && e.code === 'WRITE_FAILED') return e;
  return new ToolgaugeError(
    'WRITE_FAILED',
    `cannot write ${displayPath(file)}: ${failureReason(e)}`,
    { file, ...(errnoCode(e) ? { errno: errnoCode(e) } : {}) },
    { cause: e },
  );
}
