import { dirname } from 'node:path';
import type { Suite } from '../contracts/suite.js';
import { which } from '../util/which.js';
import { checkExpectations, toolsKnownAtLoad } from './check-expectations.js';
import { loadYamlFile, type SemanticIssue } from './load-yaml.js';
import { SuiteSchema } from './suite-schema.js';

/**
 * Names of the bundled mock MCP servers (mock-servers/mcp/index.ts), listed here so that loading a suite does not
 * load the servers and the MCP SDK (a third of the CLI's start-up); a test keeps the two in step.
 */
export const BUILTIN_SERVER_NAMES: readonly string[] = ['excel', 'economist', 'coder'];

export interface LoadedSuite {
  file: string;
  suite: Suite;
}

/**
 * Loads and validates one suite file; problems are listed in one error, a line each with file:line:col. A suite
 * whose tools are all inline has its expected calls checked against them here; one with servers, once they are
 * listed at the start of a run (checkListedExpectations).
 */
export function loadSuite(file: string): LoadedSuite {
  const { data: suite } = loadYamlFile(file, SuiteSchema, 'SUITE_INVALID', (s) => checkSuite(s, dirname(file)));
  return { file, suite };
}

function checkSuite(suite: Suite, dir: string): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const seen = new Map<string, number>();
  for (const [i, c] of suite.cases.entries()) {
    const prev = seen.get(c.id);
    if (prev !== undefined) {
      issues.push({
        path: ['cases', i, 'id'],
        message: `duplicate case id '${c.id}' (also cases[${prev}]); ids must be unique`,
      });
    } else seen.set(c.id, i);
  }
  for (const [name, spec] of Object.entries(suite.servers ?? {})) {
    if ('builtin' in spec && !BUILTIN_SERVER_NAMES.includes(spec.builtin)) {
      issues.push({
        path: ['servers', name, 'builtin'],
        message: `unknown built-in server '${spec.builtin}'; valid: ${BUILTIN_SERVER_NAMES.join(', ')}`,
      });
    }
    if ('command' in spec) {
      const exe = spec.command[0]!;
      if (!which(exe, spec.cwd ?? dir)) {
        issues.push({
          path: ['servers', name, 'command', 0],
          message: `server command '${exe}' not found on PATH or on disk; install it or fix the path`,
        });
      }
    }
  }
  if (toolsKnownAtLoad(suite)) issues.push(...checkExpectations(suite, { serverTools: [] }));
  return issues;
}
