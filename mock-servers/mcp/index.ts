import type { BuiltinServer } from '../../src/contracts/mock-server.js';
import { coderServer } from './coder/index.js';
import { economistServer } from './economist/index.js';
import { excelServer } from './excel/index.js';

/** The bundled mock MCP servers, by the name suites use in `servers: { x: { builtin: <name> } }`. */
export const builtinServers = {
  excel: excelServer,
  economist: economistServer,
  coder: coderServer,
} satisfies Record<string, BuiltinServer>;

export type BuiltinServerName = keyof typeof builtinServers;
