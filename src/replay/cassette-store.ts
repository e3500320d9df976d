import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ModelResponse } from '../contracts/model.js';
import { ToolgaugeError } from '../errors.js';
import { jsonText } from '../util/json-text.js';
import { makeFolder } from '../util/output-folder.js';
import type { CassetteRequest, CassetteSlot } from './cassette-key.js';

/** One recorded provider exchange: a line of cassettes.jsonl. */
export interface CassetteEntry {
  key: string;
  provider: string;
  slot: CassetteSlot;
  request: CassetteRequest;
  response: ModelResponse;
}

const sameSlot = (a: CassetteSlot, b: CassetteSlot, renderer: boolean) =>
  a.caseId === b.caseId && a.repeat === b.repeat && a.turn === b.turn && (!renderer || a.renderer === b.renderer);

/**
 * An append-only JSONL file of exchanges, indexed by key in memory. Identical requests may have several recorded
 * answers (repeats of a real model): the one recorded at the same place in the run wins, then any.
 */
export class CassetteStore {
  private readonly byKey = new Map<string, CassetteEntry[]>();
  private readonly all: CassetteEntry[] = [];

  constructor(readonly file: string) {}

  /** Reads the file if it exists (a torn last line, from a crash mid-write, is skipped). */
  static load(file: string, required: boolean): CassetteStore {
    const store = new CassetteStore(file);
    if (!existsSync(file)) {
      if (required) {
        throw new ToolgaugeError(
          'USAGE',
          `--replay: cassette file ${file} not found; record one first with --record (or use --replay-or-record)`,
        );
      }
      return store;
    }
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const [i, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        store.index(JSON.parse(line) as CassetteEntry);
      } catch {
        if (lines.slice(i + 1).some((l) => l.trim())) {
          throw new ToolgaugeError(
            'USAGE',
            `${file}:${i + 1}: not a JSON cassette entry; the cassette file is corrupt`,
          );
        }
      }
    }
    return store;
  }

  get size(): number {
    return this.all.length;
  }

  entries(): readonly CassetteEntry[] {
    return this.all;
  }

  find(key: string, slot: CassetteSlot): CassetteEntry | undefined {
    const list = this.byKey.get(key);
    if (!list) return undefined;
    return (
      list.findLast((e) => sameSlot(e.slot, slot, true)) ??
      list.findLast((e) => sameSlot(e.slot, slot, false)) ??
      list[0]
    );
  }

  /** The recorded request most like a missed one: same provider and place in the run first, then same case. */
  nearest(provider: string, slot: CassetteSlot): CassetteEntry | undefined {
    const mine = this.all.filter((e) => e.provider === provider);
    return (
      mine.findLast((e) => sameSlot(e.slot, slot, true)) ??
      mine.findLast((e) => sameSlot(e.slot, slot, false)) ??
      mine.findLast((e) => e.slot.caseId === slot.caseId && e.slot.turn === slot.turn) ??
      mine.findLast((e) => e.slot.caseId === slot.caseId) ??
      mine.at(-1)
    );
  }

  /**
   * Appends one entry (one synchronous write per line, so a line is whole or absent). jsonText: a recorded reply may
   * hold arguments nested deeper than JSON.stringify can recurse.
   */
  append(entry: CassetteEntry): void {
    makeFolder(dirname(this.file));
    appendFileSync(this.file, `${jsonText(entry)}\n`);
    this.index(entry);
  }

  private index(entry: CassetteEntry): void {
    this.all.push(entry);
    const list = this.byKey.get(entry.key);
    if (list) list.push(entry);
    else this.byKey.set(entry.key, [entry]);
  }
}
