import { diffCatalogs, hasDrift, readSchemaCache, writeSchemaCache } from '../catalog/schema-cache.js';
import { toolChanges } from '../catalog/schema-diff.js';
import { ServerPool } from '../catalog/server-pool.js';
import { loadConfig, loadSuites } from '../config/load-config.js';
import { firstCase } from '../config/suite-cases.js';
import type { ToolDef } from '../contracts/tool.js';
import { displayPath } from '../util/display-path.js';
import { visibleInline } from '../util/visible-text.js';

/**
 * `schemas refresh` writes each suite's tools/list snapshot; `schemas diff` exits 1 when live servers drifted, saying
 * what changed in each tool (description, parameters added or removed, types, enums, required-ness).
 */
export async function schemasCommand(action: 'refresh' | 'diff', flags: { config?: string; suite?: string[] }) {
  const loaded = loadConfig(flags.config, flags.suite ? { suites: flags.suite } : {});
  const suites = loadSuites(loaded);
  const pool = new ServerPool();
  let drifted = false;
  try {
    for (const s of suites) {
      const session = await pool.openCase(s, firstCase(s.cases)!);
      const live = session.catalog.tools;
      await session.release();
      if (action === 'refresh') {
        const file = writeSchemaCache(loaded.dir, s.suite.name, live);
        process.stdout.write(`${s.suite.name}: ${live.length} tools → ${displayPath(file)}\n`);
        continue;
      }
      const cached = readSchemaCache(loaded.dir, s.suite.name);
      const d = diffCatalogs(cached.tools, live);
      if (!hasDrift(d)) {
        process.stdout.write(`${s.suite.name}: schema cache matches the live servers (${live.length} tools)\n`);
        continue;
      }
      drifted = true;
      process.stdout.write(`${s.suite.name}: DRIFT between the schema cache and the live servers\n`);
      for (const t of d.added) process.stdout.write(`  + ${visibleInline(t)} (on the server, not in the cache)\n`);
      for (const t of d.removed) process.stdout.write(`  - ${visibleInline(t)} (in the cache, gone from the server)\n`);
      const key = (t: ToolDef) => `${t.server}/${t.name}`;
      const before = new Map(cached.tools.map((t) => [key(t), t]));
      const after = new Map(live.map((t) => [key(t), t]));
      for (const t of d.changed) {
        process.stdout.write(`  ~ ${visibleInline(t)}\n`);
        for (const line of toolChanges(before.get(t)!, after.get(t)!))
          process.stdout.write(`      ${visibleInline(line)}\n`);
      }
    }
  } finally {
    await pool.closeAll();
  }
  if (drifted) process.stdout.write('Run `toolgauge schemas refresh` and commit the result to accept the change.\n');
  return drifted ? 1 : 0;
}
