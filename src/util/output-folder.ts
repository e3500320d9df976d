import { closeSync, mkdirSync, openSync, rmdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ToolgaugeError } from '../errors.js';
import { displayPath } from './display-path.js';
import { errnoCode, failureReason, writeFailed } from './write-failure.js';

/**
 * Creates `dir` and the parents it lacks, one level at a time, and throws the file-system error of the first level
 * that cannot be made (its `path` names that level). Written by hand rather than `mkdirSync(dir, {recursive: true})`:
 * Node's recursive mkdir retries a level whose creation fails with ENOENT after making its parent, and in a file
 * system that refuses new folders with ENOENT (/proc, /sys) it never stops, at 100% CPU.
 */
export function makeFolder(dir: string): string[] {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const found = kindOf(at);
    if (found === 'folder') break;
    if (found === 'other') throw fsError('ENOTDIR', 'not a folder', at);
    const parent = dirname(at);
    if (parent === at) break; // the root itself is missing: the first mkdir will say why
    missing.push(at);
    at = parent;
  }
  const made: string[] = [];
  for (let i = missing.length - 1; i >= 0; i--) {
    const level = missing[i] as string;
    try {
      mkdirSync(level);
      made.push(level);
    } catch (e) {
      // made by someone else in the meantime: fine when it is a folder
      if (errnoCode(e) === 'EEXIST' && kindOf(level) === 'folder') continue;
      throw e;
    }
  }
  return made;
}

/** Removes the folders makeFolder made (deepest first) that are still empty; never throws. */
export function removeEmptyFolders(made: readonly string[]): void {
  for (let i = made.length - 1; i >= 0; i--) {
    try {
      rmdirSync(made[i] as string);
    } catch {
      return; // not empty (the command wrote something), or gone
    }
  }
}

/** What is at `path`: a folder, something else, or nothing (a missing path, or one under a file). */
function kindOf(path: string): 'folder' | 'other' | 'none' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'other';
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'none';
    throw e;
  }
}

function fsError(code: string, message: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}, '${path}'`), { code, path });
}

/**
 * The folder a command writes its run (or its files) into, checked before the command does any work: created with
 * its parents when missing, then a small file is written in it and removed, so a read-only file system, a folder
 * without write permission, a path through a file or into /proc is one usage error naming `what` (the flag or config
 * field and its value), the folder and the fix (exit 2), and a full disk a WRITE_FAILED error (exit 3), rather than
 * a failure half-way through a run. Returns the function that removes the folders it made while they are empty
 * (for a command that fails before it writes anything: no empty folder is left behind).
 */
export function prepareOutputFolder(dir: string, what: string): () => void {
  const folder = resolve(dir);
  let made: string[];
  try {
    made = makeFolder(folder);
  } catch (e) {
    throw folderError(e, what, folder, 'create');
  }
  const probe = join(folder, `.toolgauge-write-check-${process.pid}`);
  let fd: number | undefined;
  try {
    fd = openSync(probe, 'w');
    writeSync(fd, '\n');
  } catch (e) {
    removeEmptyFolders(made);
    throw folderError(e, what, folder, 'write in');
  } finally {
    if (fd !== undefined) closeSync(fd);
    rmSync(probe, { force: true });
  }
  return () => removeEmptyFolders(made);
}

/** As prepareOutputFolder, for a command that writes one file (`--out FILE`): its folder, and no folder at its name. */
export function prepareOutputFile(file: string, what: string): void {
  const path = resolve(file);
  if (kindOfQuietly(path) === 'folder')
    throw new ToolgaugeError('USAGE', `${what}: ${displayPath(path)} is a folder; name a file to write`);
  prepareOutputFolder(dirname(path), what);
}

function kindOfQuietly(path: string): 'folder' | 'other' | 'none' {
  try {
    return kindOf(path);
  } catch {
    return 'none';
  }
}

/** The error of a folder that cannot be made or written: out of space is a write failure, anything else usage. */
function folderError(e: unknown, what: string, folder: string, doing: 'create' | 'write in'): ToolgaugeError {
  const code = errnoCode(e);
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EIO') return writeFailed(folder, e);
  // the level that could not be made; for the written check, the folder itself (not the check's file)
  const path = (doing === 'create' && (e as NodeJS.ErrnoException).path) || folder;
  const where = displayPath(path);
  const problem =
    code === 'ENOTDIR'
      ? `${where} is a file, not a folder`
      : code === 'ENOENT'
        ? `cannot ${doing} ${where}: the file system there does not hold folders of files (like /proc or /sys)`
        : `cannot ${doing} ${where}: ${failureReason(e)}`;
  return new ToolgaugeError('USAGE', `${what}: ${problem}; pass a folder you can write to`, {
    folder,
    ...(code ? { errno: code } : {}),
  });
}
