/** A JSON Schema document as MCP servers publish it. Kept loose on purpose: real servers send anything. */
export type JSONSchema = { [key: string]: unknown };
