import { hash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { makeFolder } from './output-folder.js';

const FORMAT = 'toolgauge.token-counts/1 o200k_base';
/** Entries kept (the most recently added): ~40 bytes each on disk, so about 1 MB. */
const MAX_ENTRIES = 25_000;

/**
 * o200k token counts of texts seen in earlier runs, on disk, so that a run whose prompts were all counted before
 * never loads the tokenizer (~0.3 s of CPU, as long as the rest of a one-case eval). Keyed by the SHA-1 of the text
 * (the texts themselves are not stored). `TOOLGAUGE_CACHE_DIR` moves it (default `$XDG_CACHE_HOME/toolgauge` or
 * `~/.cache/toolgauge`); `TOOLGAUGE_CACHE_DIR=off` disables it. A missing, unreadable or corrupt file is an empty
 * cache; a failed write is ignored: the cache only ever saves time.
 */
export class TokenCache {
  private readonly counts = new Map<string, number>();
  private dirty = false;

  /** The cache at its configured place, or null when `TOOLGAUGE_CACHE_DIR=off`. */
  static open(): TokenCache | null {
    const file = defaultCacheFile();
    return file ? new TokenCache(file) : null;
  }

  constructor(private readonly file: string) {
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as { format?: string; counts?: Record<string, number> };
      if (data.format !== FORMAT || typeof data.counts !== 'object' || data.counts === null) return;
      for (const [key, n] of Object.entries(data.counts)) if (Number.isInteger(n) && n >= 0) this.counts.set(key, n);
    } catch {
      // no cache yet, or not ours: start empty
    }
  }

  static keyOf(text: string): string {
    return hash('sha1', text, 'base64url');
  }

  get(key: string): number | undefined {
    return this.counts.get(key);
  }

  set(key: string, n: number): void {
    if (this.counts.get(key) === n) return;
    this.counts.set(key, n);
    this.dirty = true;
  }

  get size(): number {
    return this.counts.size;
  }

  /** Writes the cache (atomically: a concurrent run sees the old file or the new one) when it changed. */
  save(): void {
    if (!this.dirty) return;
    const entries = [...this.counts];
    const kept = entries.slice(Math.max(0, entries.length - MAX_ENTRIES));
    try {
      makeFolder(join(this.file, '..'));
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ format: FORMAT, counts: Object.fromEntries(kept) }));
      renameSync(tmp, this.file);
      this.dirty = false;
    } catch {
      // read-only home, full disk…: the next run counts again
    }
  }
}

function defaultCacheFile(): string | null {
  const dir = process.env.TOOLGAUGE_CACHE_DIR;
  if (dir === 'off') return null;
  const base = dir || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'toolgauge');
  return join(base, 'token-counts-o200k.json');
}
