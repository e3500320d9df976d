import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

describe('toolgauge merge of an incomplete set of shards', () => {
  let out = '';
  let shards: string[] = [];
  beforeAll(async () => {
    out = tempDir('tg-merge-partial-');
    const cfg = join(FIXTURES, 'mini.config.yaml');
    const runs = await Promise.all(
      [1, 3].map((i) => runCli(['eval', '-c', cfg, '-q', '--shard', `${i}/3`, '--out', join(out, `s${i}`)])),
    );
    shards = runs.map((r) => runDirFrom(r.stderr));
  }, 60_000);

  it('is a usage error (exit 2) with one line naming the missing shard and how to proceed', async () => {
    const merged = join(out, 'refused');
    const res = await runCli(['merge', ...shards, '--out', merged]);
    expect(res.code).toBe(2);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/merge: shard\(s\) 2\/3 missing; .*--shard 2\/3.*--allow-partial/);
    expect(existsSync(join(merged, 'run.jsonl'))).toBe(false);
  }, 30_000);

  it('with --allow-partial, warns, merges the shards given, marks the run partial and exits by the gate', async () => {
    const merged = join(out, 'partial');
    const res = await runCli(['merge', ...shards, '--out', merged, '--allow-partial']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('merge: shard(s) 2/3 missing; the merged run is partial');
    const records = readRecords(join(merged, 'run.jsonl'));
    expect(records[0]).toMatchObject({ type: 'header', missingShards: ['2/3'] });
    const cases = records.filter((r) => r.type === 'case');
    const given = shards.flatMap((d) => readRecords(join(d, 'run.jsonl')).filter((r) => r.type === 'case'));
    expect(cases).toHaveLength(given.length);
    expect(readFileSync(join(merged, 'summary.md'), 'utf8')).toContain('(partial: shard(s) 2/3 missing)');
  }, 30_000);
});
