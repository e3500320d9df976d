import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mergeCommand } from '../src/cli/merge-command.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';

describe('toolgauge merge of an incomplete set of shards', () => {
  let out = '';
  let shards: string[] = [];
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'tg-merge-partial-'));
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

  // `--allow-partial` reaches mergeCommand as this flag once the merge command registers it.
  it('with allowPartial, warns and merges the shards given, exiting by the gate', async () => {
    const merged = join(out, 'partial');
    const stderr: string[] = [];
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
      stderr.push(String(s));
      return true;
    });
    const std = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let code: number;
    try {
      code = await mergeCommand(shards, { out: merged, allowPartial: true });
    } finally {
      err.mockRestore();
      std.mockRestore();
    }
    expect(code).toBe(0);
    expect(stderr.join('')).toContain('merge: shard(s) 2/3 missing; the merged run is partial');
    const cases = readRecords(join(merged, 'run.jsonl')).filter((r) => r.type === 'case');
    const given = shards.flatMap((d) => readRecords(join(d, 'run.jsonl')).filter((r) => r.type === 'case'));
    expect(cases).toHaveLength(given.length);
  }, 30_000);
});
