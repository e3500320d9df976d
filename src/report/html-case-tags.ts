import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseYamlPart, readYaml, splitTopLevelSequencesOfFile } from '../config/fast-yaml.js';
import type { RunHeader } from '../run-log/schema.js';
import { FileBytes } from '../util/file-bytes.js';

type CaseItem = { id?: unknown; tags?: unknown } | null | undefined;

/**
 * Tags of the run's cases (`suite/case` → tags), read from the suite files the header names, for the report's case
 * search. Best effort: a suite file that moved or does not parse gives no tags (the cases are still listed). A large
 * suite is read a batch of cases at a time, keeping the tags only; a file that never says `tags` is not parsed.
 */
export function loadCaseTags(header: RunHeader): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const s of header.suites) {
    const candidates = isAbsolute(s.file) ? [s.file] : [resolve(s.file), resolve(dirname(header.configFile), s.file)];
    const file = candidates.find((f) => existsSync(f));
    if (!file) continue;
    try {
      const bytes = new FileBytes(file);
      try {
        if (!bytes.includes('tags')) continue;
        for (const c of caseItems(bytes)) {
          if (typeof c?.id !== 'string' || !Array.isArray(c.tags)) continue;
          tags.set(
            `${s.name}/${c.id}`,
            c.tags.filter((t): t is string => typeof t === 'string'),
          );
        }
      } finally {
        bytes.close();
      }
    } catch {
      // not a suite we can read: no tags
    }
  }
  return tags;
}

/** A suite file's cases: batch by batch from a block-style `cases:` list, else from the whole document. */
function* caseItems(bytes: FileBytes): Generator<CaseItem> {
  const region = splitTopLevelSequencesOfFile(bytes).regions.find((r) => r.key === 'cases');
  if (!region) {
    const doc = readYaml(bytes.text(0, bytes.length)) as { cases?: CaseItem[] } | null;
    yield* doc?.cases ?? [];
    return;
  }
  for (const b of region.batches) {
    const items = parseYamlPart(bytes.text(b.start, b.end));
    if (Array.isArray(items)) yield* items as CaseItem[];
  }
}
