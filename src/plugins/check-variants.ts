import type { LoadedSuite } from '../config/load-suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { ToolgaugeError } from '../errors.js';
import type { Strategy } from './strategies.js';

/**
 * Before a run calls a model, for one suite's tools: every catalog variant in play can draw its distractors (enough
 * tools the suite does not already have), and every tool its descriptions file names exists in some suite or
 * distractor source (checked once all suites are seen: `done`). A problem is a config error naming the variant and
 * the fix, rather than a run whose every case fails.
 */
export class VariantCheck {
  private readonly named = new Set<string>();
  private seen = 0;

  constructor(private readonly strategies: readonly Strategy[]) {}

  suite(loaded: LoadedSuite, tools: readonly ToolDef[]): void {
    this.seen++;
    const names = new Set(tools.map((t) => t.name));
    for (const t of tools) {
      this.named.add(t.name);
      this.named.add(`${t.server}/${t.name}`);
    }
    for (const s of this.strategies) {
      const v = s.variant;
      const d = v?.variant.spec.distractors;
      if (!v || !d) continue;
      for (const t of v.pool ?? []) {
        this.named.add(t.name);
        this.named.add(`${t.server}/${t.name}`);
      }
      const eligible = new Set((v.pool ?? []).filter((t) => !names.has(t.name)).map((t) => t.name)).size;
      if (d.count > eligible) {
        throw new ToolgaugeError(
          'CONFIG_INVALID',
          `variant ${v.variant.name}: distractors.count ${d.count} but its sources offer only ${eligible} tools suite ${loaded.suite.name} does not already have; lower the count or add sources to distractors.from`,
        );
      }
    }
  }

  /**
   * After every suite: names in a descriptions file that no suite or distractor source has (typos). Skipped when a
   * suite's tools could not be listed (`suites`: how many the run has): the run reports that server's failure itself.
   */
  done(suites: number): void {
    if (this.seen < suites) return;
    for (const s of this.strategies) {
      const v = s.variant;
      if (!v?.overrides) continue;
      const unknown = Object.keys(v.overrides).filter((k) => !this.named.has(k));
      if (unknown.length > 0) {
        throw new ToolgaugeError(
          'CONFIG_INVALID',
          `variant ${v.variant.base}: descriptions file ${v.variant.spec.descriptions ?? ''} names ${unknown.map((u) => `'${u}'`).join(', ')}, a tool of no suite or distractor source of this run; write a tool's name or server/name`,
        );
      }
    }
  }
}
