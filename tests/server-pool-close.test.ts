import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerPool } from '../src/catalog/server-pool.js';
import type { LoadedSuite } from '../src/config/load-suite.js';
import { casesOf } from '../src/config/suite-cases.js';
import { FIXTURES } from './cli-helpers.js';
import { processesWith } from './fixtures/mcp-support/processes.js';

const FAULTY = join(FIXTURES, 'mcp-faulty', 'server.mjs');

/** A suite whose one shared stdio server never answers initialize. */
function hangingSuite(marker: string): LoadedSuite {
  return {
    file: join(FIXTURES, `pool-${marker}.yaml`),
    suite: {
      name: 'pool',
      servers: {
        faulty: { command: ['node', FAULTY, '--marker', marker], env: { FAULTY_HANG_ON: 'initialize' } },
      },
    } as LoadedSuite['suite'],
    cases: casesOf([{ id: 'a', prompt: 'Use the whoami tool.', expect: { calls: [{ tool: 'whoami', args: {} }] } }]),
  };
}

describe('ServerPool: a case cancelled while a shared server is still starting', () => {
  const seen: unknown[] = [];
  const onUnhandled = (reason: unknown) => seen.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    seen.length = 0;
  });

  // Regression: after Ctrl-C, a case that arrived with its cancellation already fired returned at once and left the
  // shared start unobserved; closing the pool then failed that start, and the CLI died of an unhandled rejection.
  it('leaves no unhandled rejection and no process when the pool closes', async () => {
    process.on('unhandledRejection', onUnhandled);
    const marker = `pool-${randomUUID()}`;
    const loaded = hangingSuite(marker);
    const pool = new ServerPool();
    const running = new AbortController();
    const first = pool.openCase(loaded, [...loaded.cases][0]!, {
      timeoutMs: 60_000,
      cancel: { signal: running.signal },
    });
    // The first case gives up (its run was interrupted) while the server is still starting…
    running.abort(new Error('interrupted'));
    await expect(first).rejects.toThrow('interrupted');
    // …and a second case arrives already cancelled, while that shared start is still pending.
    const second = pool.openCase(loaded, [...loaded.cases][0]!, {
      timeoutMs: 60_000,
      cancel: { signal: running.signal },
    });
    await expect(second).rejects.toThrow('interrupted');
    await pool.closeAll();
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([]);
    expect(processesWith(marker)).toEqual([]);
  });
});
