import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { isToolgaugeError } from '../errors.js';
import { lockRunDir, RUN_LOCK_FILE, type RunLockOwner } from './run-lock.js';

const tempDir = useTempDirs();

const folder = () => tempDir('tg-run-lock-');

function plant(dir: string, owner: Partial<RunLockOwner>): string {
  const file = join(dir, RUN_LOCK_FILE);
  const full: RunLockOwner = {
    pid: process.ppid,
    host: hostname(),
    since: '2026-01-02T03:04:05.000Z',
    command: 'eval',
    ...owner,
  };
  writeFileSync(file, JSON.stringify(full));
  return file;
}

function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isToolgaugeError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected the lock to be refused');
}

describe('lockRunDir', () => {
  it('writes the owner into the lock file and removes it on release', () => {
    const dir = folder();
    const lock = lockRunDir(dir, 'grade');
    const owner = JSON.parse(readFileSync(join(dir, RUN_LOCK_FILE), 'utf8')) as RunLockOwner;
    expect(owner).toMatchObject({ pid: process.pid, host: hostname(), command: 'grade' });
    expect(Number.isNaN(Date.parse(owner.since))).toBe(false);
    lock.release();
    lock.release(); // idempotent
    expect(existsSync(join(dir, RUN_LOCK_FILE))).toBe(false);
  });

  it('nests within one process: the lock stays until the outermost release', () => {
    const dir = folder();
    const outer = lockRunDir(dir, 'eval');
    const inner = lockRunDir(dir, 'eval');
    inner.release();
    expect(existsSync(join(dir, RUN_LOCK_FILE))).toBe(true);
    outer.release();
    expect(existsSync(join(dir, RUN_LOCK_FILE))).toBe(false);
  });

  it('refuses a folder held by a live process of this host, naming it and what to do', () => {
    const dir = folder();
    const file = plant(dir, { pid: process.ppid, command: 'eval --resume' });
    const e = refusal(() => lockRunDir(dir, 'eval'));
    expect(e.code).toBe('USAGE');
    expect(e.message).toContain(
      `is in use by toolgauge eval --resume (pid ${process.ppid} on ${hostname()}, since 2026-01-02T03:04:05.000Z)`,
    );
    expect(e.message).toContain(`delete ${file}`);
    expect(e.message).not.toContain('\n');
    expect(existsSync(file)).toBe(true);
  });

  it('never takes over a lock from another host (its pid cannot be checked from here)', () => {
    const dir = folder();
    plant(dir, { host: 'elsewhere', pid: 999_999 });
    expect(refusal(() => lockRunDir(dir, 'eval')).message).toContain('pid 999999 on elsewhere');
  });

  it('takes over the lock of a process that is gone, with a note', () => {
    const dir = folder();
    plant(dir, { pid: 4242 });
    const notes: string[] = [];
    const lock = lockRunDir(dir, 'eval --resume', { isAlive: () => false, onNote: (l) => notes.push(l) });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(`took over the lock left by toolgauge eval (pid 4242 on ${hostname()}`);
    expect(JSON.parse(readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid, command: 'eval --resume' });
    lock.release();
  });

  it('treats its own pid in a lock it does not hold as a previous process (pids are reused)', () => {
    const dir = folder();
    plant(dir, { pid: process.pid });
    const notes: string[] = [];
    lockRunDir(dir, 'eval', { onNote: (l) => notes.push(l) }).release();
    expect(notes).toHaveLength(1);
  });

  it('takes over an unreadable lock file only once it is old (a fresh one is still being written)', () => {
    const dir = folder();
    const file = join(dir, RUN_LOCK_FILE);
    writeFileSync(file, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const notes: string[] = [];
    lockRunDir(dir, 'merge', { onNote: (l) => notes.push(l) }).release();
    expect(notes[0]).toContain('unreadable lock file');
  });

  it('does not remove a lock another process took over after it', () => {
    const dir = folder();
    const lock = lockRunDir(dir, 'eval');
    const file = plant(dir, { pid: process.ppid, command: 'regrade --in-place' });
    lock.release();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ command: 'regrade --in-place' });
  });
});
