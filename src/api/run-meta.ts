import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export function gitCommit(cwd: string): string | null {
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || null
    );
  } catch {
    return null;
  }
}

/** Sortable and unique: 2026-11-22T01-23-45-3f9a. */
export function newRunId(now = new Date()): string {
  return `${now.toISOString().slice(0, 19).replace(/:/g, '-')}-${randomBytes(2).toString('hex')}`;
}
