import { dirname } from 'node:path';
import { builtinServers } from '../../mock-servers/mcp/index.js';
import type { Suite } from '../contracts/suite.js';
import { which } from '../util/which.js';
import { loadYamlFile, type SemanticIssue } from './load-yaml.js';
import { SuiteSchema } from './suite-schema.js';

export interface LoadedSuite {
  file: string;
  suite: Suite;
}

/** Loads and validates one suite file; problems are one-line errors with file:line:col. */
export function loadSuite(file: string): LoadedSuite {
  const { data: suite } = loadYamlFile(file, SuiteSchema, 'SUITE_INVALID', (s) => checkSuite(s, dirname(file)));
  return { file, suite };
}

function checkSuite(suite: Suite, dir: string): SemanticIssue | undefined {
  const seen = new Map<string, number>();
  for (const [i, c] of suite.cases.entries()) {
    const prev = seen.get(c.id);
    if (prev !== undefined) {
      return {
        path: ['cases', i, 'id'],
        message: `duplicate case id '${c.id}' (also cases[${prev}]); ids must be unique`,
      };
    }
    seen.set(c.id, i);
  }
  for (const [name, spec] of Object.entries(suite.servers ?? {})) {
    if ('builtin' in spec && !(spec.builtin in builtinServers)) {
      return {
        path: ['servers', name, 'builtin'],
        message: `unknown built-in server '${spec.builtin}'; valid: ${Object.keys(builtinServers).join(', ')}`,
      };
    }
    if ('command' in spec) {
      const exe = spec.command[0]!;
      if (!which(exe, spec.cwd ?? dir)) {
        return {
          path: ['servers', name, 'command', 0],
          message: `server command '${exe}' not found on PATH or on disk; install it or fix the path`,
        };
      }
    }
  }
  return undefined;
}
