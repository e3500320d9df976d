import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ToolgaugeError } from '../errors.js';
import { displayPath } from './display-path.js';
import { makeFolder } from './output-folder.js';
import { writeFailed } from './write-failure.js';

/** The lock file a writing process keeps in a run folder. */
export const RUN_LOCK_FILE = '.toolgauge.lock';

const OwnerSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  since: z.string(),
  command: z.string(),
});

/** Who holds a run folder: written into the lock file, shown to a second writer. */
export type RunLockOwner = z.infer<typeof OwnerSchema>;

/** A held lock. `release` is idempotent. */
export interface RunLock {
  readonly file: string;
  readonly owner: RunLockOwner;
  release(): void;
}

export interface RunLockOptions {
  /** Where a note about a stale lock taken over goes (default: stderr). */
  onNote?: (line: string) => void;
  /** Whether a process of this host is alive (injectable for tests). */
  isAlive?: (pid: number) => boolean;
}

interface Held {
  owner: RunLockOwner;
  count: number;
}

/** Folders this process holds, by lock file: taking a held lock again nests (eval takes it, then the runner). */
const held = new Map<string, Held>();
let exitHook = false;

/**
 * Takes the lock on a run folder for a process that writes it (eval, eval --resume, grade, regrade, merge): an
 * exclusive-create lock file holding the owner's pid, host and start time. A second writer gets a usage error
 * naming the holder and what to do. A lock whose pid is not alive on this host (a process killed with -9) is stale:
 * it is taken over with a note, so `--resume` after a crash works. A lock from another host cannot be checked and is
 * never taken over. Released by `release`, or when the process exits.
 */
export function lockRunDir(dir: string, command: string, options: RunLockOptions = {}): RunLock {
  const folder = resolve(dir);
  const file = join(folder, RUN_LOCK_FILE);
  const mine = held.get(file);
  if (mine) {
    mine.count++;
    return handle(file, mine.owner);
  }
  makeFolder(folder);
  const owner: RunLockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command };
  const isAlive = options.isAlive ?? pidAlive;
  const note = options.onNote ?? ((line: string) => process.stderr.write(`${line}\n`));
  for (let attempt = 0; ; attempt++) {
    if (create(file, owner)) break;
    const current = readOwner(file);
    if (current === 'gone') continue; // released between our create and our read: try again
    if (current !== 'unreadable' && !isStale(current, isAlive)) throw lockedError(folder, file, current);
    // A lock file being written by its creator reads as unreadable for a moment; only an old one is abandoned.
    if (current === 'unreadable' && !olderThan(file, UNREADABLE_GRACE_MS)) {
      if (attempt > 150) throw lockedError(folder, file, undefined);
      sleep(20);
      continue;
    }
    if (takeOver(file, current)) {
      note(
        current === 'unreadable'
          ? `toolgauge: ${displayPath(folder)}: took over an unreadable lock file left by a process that died`
          : `toolgauge: ${displayPath(folder)}: took over the lock left by ${describe(current)}, which is no longer running`,
      );
    }
    if (attempt > 150) throw lockedError(folder, file, undefined);
  }
  held.set(file, { owner, count: 1 });
  if (!exitHook) {
    exitHook = true;
    // A process that exits without releasing (process.exit, an uncaught error) still leaves no lock behind.
    process.on('exit', () => {
      for (const [f, h] of held) removeIfOurs(f, h.owner);
      held.clear();
    });
  }
  return handle(file, owner);
}

const UNREADABLE_GRACE_MS = 2000;

function handle(file: string, owner: RunLockOwner): RunLock {
  let released = false;
  return {
    file,
    owner,
    release() {
      if (released) return;
      released = true;
      const h = held.get(file);
      if (!h || --h.count > 0) return;
      held.delete(file);
      removeIfOurs(file, owner);
    },
  };
}

/** Creates the lock file exclusively; false if one exists. */
function create(file: string, owner: RunLockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } catch (e) {
    // (a full disk): no empty lock file is left for the next run to wait on
    closeSync(fd);
    rmSync(file, { force: true });
    throw writeFailed(file, e);
  }
  closeSync(fd);
  return true;
}

function readOwner(file: string): RunLockOwner | 'gone' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw e;
  }
  try {
    const parsed = OwnerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

function sameOwner(a: RunLockOwner, b: RunLockOwner): boolean {
  return a.pid === b.pid && a.host === b.host && a.since === b.since;
}

/** Stale: the owner ran on this host and is gone (our own pid in a lock we do not hold is a previous process). */
function isStale(owner: RunLockOwner, isAlive: (pid: number) => boolean): boolean {
  if (owner.host !== hostname()) return false;
  return owner.pid === process.pid || !isAlive(owner.pid);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, but another user's
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a stale lock so the caller's next exclusive create can win. Two processes may find the same stale lock:
 * removing is done under a second exclusive-create guard, and only if the lock still is the stale one read, so one
 * never removes the fresh lock the other has just created. True if the stale lock was removed here.
 */
function takeOver(file: string, stale: RunLockOwner | 'unreadable'): boolean {
  const guard = `${file}.takeover`;
  if (olderThan(guard, UNREADABLE_GRACE_MS * 5)) rmSync(guard, { force: true }); // left by a process that died
  let fd: number;
  try {
    fd = openSync(guard, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      sleep(20);
      return false;
    }
    throw e;
  }
  closeSync(fd);
  try {
    const now = readOwner(file);
    const still = stale === 'unreadable' ? now === 'unreadable' : typeof now === 'object' && sameOwner(now, stale);
    if (!still) return false;
    rmSync(file, { force: true });
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

function removeIfOurs(file: string, owner: RunLockOwner): void {
  const now = readOwner(file);
  if (typeof now === 'object' && sameOwner(now, owner)) rmSync(file, { force: true });
}

function olderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function describe(owner: RunLockOwner): string {
  return `toolgauge ${owner.command} (pid ${owner.pid} on ${owner.host}, since ${owner.since})`;
}

function lockedError(folder: string, file: string, owner: RunLockOwner | undefined): ToolgaugeError {
  const where = displayPath(folder);
  const holder = owner ? describe(owner) : 'another process';
  return new ToolgaugeError(
    'USAGE',
    `${where} is in use by ${holder}; wait for it to finish, or if it is no longer running, delete ${displayPath(file)} and try again`,
    { lockFile: file, ...(owner ? { owner } : {}) },
  );
}
