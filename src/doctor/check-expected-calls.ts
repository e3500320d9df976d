import type { LoadedSuite } from '../config/load-suite.js';
import { errorMessage } from '../errors.js';
import { checkListedExpectations } from '../runner/preflight.js';
import type { Finding } from './finding.js';

/**
 * The check eval makes before it calls any model: each case's expected calls name a tool its servers list (after the
 * tool filters), with parameters the tool's schema has. A doctor that said "ready" while eval would stop on this
 * (exit 2) would not be telling the truth.
 */
export async function checkExpectedCalls(suites: readonly LoadedSuite[], waitMs: number): Promise<Finding> {
  try {
    await checkListedExpectations(suites, { waitMs });
    return {
      status: 'ok',
      subject: 'expected calls',
      detail: 'every case names tools and parameters its servers list',
    };
  } catch (e) {
    const lines = errorMessage(e).split('\n');
    return {
      status: 'fail',
      subject: 'expected calls',
      detail: `${lines[0] ?? ''}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ''}`,
      fix: 'correct the case as the message says: a tool name or parameter the server does not list (toolgauge schemas diff shows what changed)',
    };
  }
}
