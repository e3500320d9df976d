import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** A bundled mock MCP server. `create()` returns a fresh server with fresh state (one per eval case). */
export interface BuiltinServer {
  name: string;
  description: string;
  /** Number of tools it publishes (documentation and tests). */
  toolCount: number;
  create(): Server;
}
