import { isAbsolute, join, relative } from 'node:path';
import { ToolgaugeError } from '../errors.js';

/** Longest name accepted as one segment: well under the 255 bytes most file systems allow, with room for `.json`. */
const MAX_SEGMENT = 100;

/**
 * Characters a file name must not hold: path separators (`/`, `\`), characters Windows forbids in names
 * (`< > : " | ? *`), and control characters (C0, DEL, C1), which also reach terminals when a path is printed.
 */
const FORBIDDEN = /[/\\<>:"|?*\u0000-\u001f\u007f-\u009f]/u;

/**
 * Why `name` cannot be used as one path segment (a file or folder name inside a given folder), or undefined when it
 * can: it must be non-empty, at most 100 characters, not `.` or `..` (nor only dots), hold no separator, no character
 * Windows forbids and no control character, and not begin or end with a space (Windows drops trailing spaces and dots,
 * so two names could meet on one file). Names from data (a suite's `name`, a server's name) are checked with this
 * before they are joined to a folder.
 */
export function segmentProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_SEGMENT) return `is ${name.length} characters long (at most ${MAX_SEGMENT})`;
  if (/^\.+$/.test(name)) return 'is only dots (it would name a folder, not a file in it)';
  const bad = FORBIDDEN.exec(name)?.[0];
  if (bad !== undefined) return `holds ${describe(bad)}, which a file name must not`;
  if (/^\s|\s$/u.test(name)) return 'begins or ends with a space';
  if (name.endsWith('.')) return 'ends with a dot';
  return undefined;
}

/** How a forbidden character is named in a message (control characters as escapes, never raw). */
function describe(c: string): string {
  if (c === '/' || c === '\\') return `a path separator '${c}'`;
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f))
    return `a control character (U+${code.toString(16).padStart(4, '0').toUpperCase()})`;
  return `'${c}'`;
}

/** What a message suggests for a name that was refused. */
export const SEGMENT_HINT = 'use letters, digits, spaces and - _ . + ( ) (e.g. my-suite)';

/**
 * `dir` joined with `name` + `suffix`, for a name that is one safe segment; anything else is a usage error naming
 * `what` (e.g. "suite 'x': name"). The result is checked to lie directly inside `dir` as well, so no caller can
 * write outside its folder even if a rule above were to miss a case.
 */
export function joinSegment(dir: string, name: string, what: string, suffix = ''): string {
  const problem = segmentProblem(name);
  if (problem) throw new ToolgaugeError('USAGE', `${what} ${JSON.stringify(name)} ${problem}; ${SEGMENT_HINT}`);
  const file = join(dir, `${name}${suffix}`);
  const rel = relative(dir, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.includes('/') || rel.includes('\\')) {
    throw new ToolgaugeError('USAGE', `${what} ${JSON.stringify(name)} does not name a file inside ${dir}`);
  }
  return file;
}
