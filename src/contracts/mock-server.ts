import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A bundled mock MCP server. `create()` returns a fresh server with fresh state (one per eval case). */
export interface BuiltinServer {
  name: string;
  description: string;
  create(): McpServer;
}
