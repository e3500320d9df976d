import { describe, expect, it } from 'vitest';
import type { CaseRecord } from '../run-log/schema.js';
import { Progress } from './progress.js';

/** A stderr stand-in that records what is written. */
function sink(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, write: (s: string) => writes.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, writes };
}

const passed = { grades: [{ pass: true }] } as CaseRecord;
const failed = { grades: [{ pass: false }] } as CaseRecord;
const errored = { grades: [], error: { code: 'PROVIDER_HTTP', message: '500' } } as unknown as CaseRecord;

describe('Progress', () => {
  it('on a TTY redraws at most every 100 ms, and always at the end', () => {
    const saved = process.env.CI;
    delete process.env.CI;
    try {
      const { stream, writes } = sink(true);
      let clock = 1_000;
      const progress = new Progress(1000, stream, false, () => clock);
      for (let done = 1; done <= 1000; done++) {
        if (done === 500) clock += 150;
        progress.update(done % 10 === 0 ? failed : passed, done);
      }
      const bars = writes.filter((w) => w.startsWith('\r'));
      expect(bars).toHaveLength(3); // the first case, the first one 100 ms later, the last
      expect(bars[1]).toContain(' 50% 500/1000 cases · 50 with a failing grade · 0 errors');
      expect(bars[2]).toMatch(/^\r\[#{28}\] 100% 1000\/1000 cases · 100 with a failing grade/);
      expect(writes.at(-1)).toBe('\n');
    } finally {
      if (saved !== undefined) process.env.CI = saved;
    }
  });

  it('without a TTY writes a plain line every 10% (and after 5 s of silence)', () => {
    const { stream, writes } = sink(false);
    let clock = 0;
    const progress = new Progress(200, stream, false, () => clock);
    for (let done = 1; done <= 200; done++) {
      if (done === 7) clock += 6_000;
      progress.update(done === 3 ? errored : passed, done);
    }
    expect(writes).toHaveLength(12); // 0%, the 5-s line at 3%, 10%, 20%, … 100%
    expect(writes[1]).toBe('progress: 3% 7/200 cases · 0 with a failing grade · 1 errors\n');
    expect(writes.at(-1)).toBe('progress: 100% 200/200 cases · 0 with a failing grade · 1 errors\n');
  });

  it('quiet writes nothing', () => {
    const { stream, writes } = sink(false);
    const progress = new Progress(2, stream, true);
    progress.update(passed, 1);
    progress.update(passed, 2);
    progress.end();
    expect(writes).toEqual([]);
  });
});
