import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TokenCache } from './token-cache.js';
import type { TokenBatch, TokenCounts } from './token-worker.js';
import { countTokens } from './tokens.js';

/** Texts per prefetch message: large enough that messaging costs nothing per text, small enough to start early. */
const PREFETCH_BATCH = 1024;

interface Pending {
  texts: string[];
  resolves: Array<(n: number) => void>;
}

/**
 * o200k token counts, started off the main thread. The tokenizer's tables take ~0.3 s of CPU to load, as long as
 * the rest of a one-case eval: a worker thread started with the command loads them in parallel and counts the first
 * cases' prompts (texts asked for in the same microtask burst travel as one message). The eval command `prefetch`es
 * every case prompt, so the worker counts them on the other core while the run goes on; without a prefetch, a long
 * run hands counting over to the main thread (see `handOverAfter`). Counts of texts seen in earlier runs come from a disk cache
 * (token-cache.ts), so a run of known prompts never needs the tables at all.
 * Where the compiled worker does not exist (TypeScript sources run through tsx or vitest), or the worker fails,
 * counting falls back to the main thread: same numbers, only slower to start.
 */
export class TokenCounter {
  private worker: Worker | undefined;
  private requested = 0;
  private nextId = 1;
  private readonly inFlight = new Map<number, Pending>();
  private batch: Pending | undefined;
  /** Counts asked for ahead of the run (`prefetch`), by text: the number once known, its promise until then. */
  private readonly ahead = new Map<string, Promise<number> | number>();

  /**
   * @param handOverAfter texts counted by the worker before the main thread takes over: a message round trip costs
   *   the main thread ~10-50 µs, several times the encoding of a short prompt, so a long run loads the tables here
   *   once (~0.3 s) and stops the worker; short runs (and start-up) never pay for the tables on the main thread.
   */
  constructor(
    workerFile: string | URL | null = defaultWorkerFile(),
    private handOverAfter = 256,
    private readonly cache: TokenCache | null = TokenCache.open(),
  ) {
    if (workerFile === null) return;
    try {
      const worker = new Worker(workerFile);
      worker.on('message', (m: TokenCounts) => this.settle(m));
      worker.on('error', () => this.fallBack());
      worker.on('exit', () => this.fallBack());
      // After the listeners: adding a 'message' listener refs the worker again.
      worker.unref();
      this.worker = worker;
    } catch {
      this.worker = undefined;
    }
  }

  /** True while counts are computed by the worker thread. */
  get threaded(): boolean {
    return this.worker !== undefined;
  }

  count(text: string): Promise<number> | number {
    if (text.length === 0) return 0;
    const early = this.ahead.get(text);
    if (early !== undefined) return early;
    const cache = this.cache;
    if (!cache) return this.countNow(text);
    const key = TokenCache.keyOf(text);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const n = this.countNow(text);
    if (typeof n === 'number') cache.set(key, n);
    else void n.then((counted) => cache.set(key, counted));
    return n;
  }

  /**
   * Sends texts the run will ask for (the cases' prompts) to the worker ahead of time, in large batches: it counts
   * them on the other core while this thread runs cases, and stays for the whole run (no hand-over, so this thread
   * never loads the tables). Texts the disk cache knows are not sent. Without a worker this does nothing.
   */
  prefetch(texts: Iterable<string>): void {
    if (!this.worker) return;
    this.handOverAfter = Number.POSITIVE_INFINITY;
    const cache = this.cache;
    let chunk: Pending = { texts: [], resolves: [] };
    for (const text of texts) {
      if (text.length === 0 || this.ahead.has(text)) continue;
      const key = cache ? TokenCache.keyOf(text) : '';
      const hit = cache?.get(key);
      if (hit !== undefined) {
        this.ahead.set(text, hit);
        continue;
      }
      const batch = chunk;
      const counted = new Promise<number>((resolve) => batch.resolves.push(resolve));
      batch.texts.push(text);
      this.ahead.set(text, counted);
      void counted.then((n) => {
        this.ahead.set(text, n);
        cache?.set(key, n);
      });
      if (batch.texts.length >= PREFETCH_BATCH) {
        this.send(batch);
        chunk = { texts: [], resolves: [] };
      }
    }
    if (chunk.texts.length > 0) this.send(chunk);
  }

  /** Writes the counts learnt in this run to the disk cache (see TokenCache). */
  save(): void {
    this.cache?.save();
  }

  private countNow(text: string): Promise<number> | number {
    if (this.worker && ++this.requested > this.handOverAfter) this.handOver();
    if (!this.worker) return countTokens(text);
    if (!this.batch) {
      const batch: Pending = { texts: [], resolves: [] };
      this.batch = batch;
      queueMicrotask(() => this.send(batch));
    }
    const batch = this.batch;
    batch.texts.push(text);
    return new Promise<number>((resolve) => batch.resolves.push(resolve));
  }

  /** The main thread counts from now on (what the worker was still asked included); the worker stops. */
  private handOver(): void {
    const worker = this.worker;
    this.fallBack();
    void worker?.terminate();
  }

  /** Stops the worker; later counts run on the main thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.fallBack();
    await worker?.terminate();
  }

  private send(batch: Pending): void {
    if (this.batch === batch) this.batch = undefined;
    if (!this.worker) {
      this.answerHere(batch);
      return;
    }
    const id = this.nextId++;
    this.inFlight.set(id, batch);
    // Keep the process alive only while an answer is awaited (an idle worker must not hold the CLI open).
    if (this.inFlight.size === 1) this.worker.ref();
    this.worker.postMessage({ id, texts: batch.texts } satisfies TokenBatch);
  }

  private settle(m: TokenCounts): void {
    const batch = this.inFlight.get(m.id);
    if (!batch) return;
    this.inFlight.delete(m.id);
    if (this.inFlight.size === 0) this.worker?.unref();
    if (!m.counts) {
      this.answerHere(batch);
      return;
    }
    const counts = m.counts;
    batch.resolves.forEach((resolve, i) => {
      resolve(counts[i] ?? 0);
    });
  }

  /** The worker died or was closed: everything still waiting is counted here, and so is everything after. */
  private fallBack(): void {
    this.worker = undefined;
    for (const batch of this.inFlight.values()) this.answerHere(batch);
    this.inFlight.clear();
  }

  private answerHere(batch: Pending): void {
    batch.resolves.forEach((resolve, i) => {
      resolve(countTokens(batch.texts[i] as string));
    });
  }
}

/** The compiled worker beside this module (dist/src/util or the CLI bundle's dist/cli), or null from sources. */
function defaultWorkerFile(): URL | null {
  const url = new URL('./token-worker.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : null;
}

let shared: TokenCounter | undefined;

/** The process's counter, started on first use: call it early (the eval command does) to overlap the loading. */
export function sharedTokenCounter(): TokenCounter {
  shared ??= new TokenCounter();
  return shared;
}
