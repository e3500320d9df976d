import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { readYaml } from '../config/fast-yaml.js';
import type { RunHeader } from '../run-log/schema.js';

/**
 * Tags of the run's cases (`suite/case` → tags), read from the suite files the header names, for the report's case
 * search. Best effort: a suite file that moved or does not parse gives no tags (the cases are still listed).
 */
export function loadCaseTags(header: RunHeader): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const s of header.suites) {
    const candidates = isAbsolute(s.file) ? [s.file] : [resolve(s.file), resolve(dirname(header.configFile), s.file)];
    const file = candidates.find((f) => existsSync(f));
    if (!file) continue;
    try {
      const doc = readYaml(readFileSync(file, 'utf8')) as { cases?: { id?: unknown; tags?: unknown }[] } | null;
      for (const c of doc?.cases ?? []) {
        if (typeof c?.id !== 'string' || !Array.isArray(c.tags)) continue;
        tags.set(
          `${s.name}/${c.id}`,
          c.tags.filter((t): t is string => typeof t === 'string'),
        );
      }
    } catch {
      // not a suite we can read: no tags
    }
  }
  return tags;
}
