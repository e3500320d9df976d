import { createHash } from 'node:crypto';

/** A tool as naming needs it: its own name and the server that publishes it. */
export interface ToolKey {
  name: string;
  server: string;
}

/**
 * Longest tool names native tool APIs accept: 64 (OpenAI, Ollama and most OpenAI-compatible servers) and 128
 * (Anthropic). All of them also require `^[a-zA-Z0-9_-]+$`.
 */
export const NAME_LIMITS = [64, 128] as const;

const UNSAFE = /[^a-zA-Z0-9_-]/g;
const SAFE = /^[a-zA-Z0-9_-]+$/;

/** Whether a native tool API accepts `name`'s characters (the length is checked separately). */
export function hasSafeCharacters(name: string): boolean {
  return SAFE.test(name);
}

/** `name` with every character a native API rejects turned into `_` (`math.factorial` → `math_factorial`). */
export function safeCharacters(name: string): string {
  return name.replace(UNSAFE, '_') || 'tool';
}

/** The key a tool's hash suffix is computed from: `server/tool`, stable whatever the tool is called in a request. */
export function nameKey(tool: ToolKey): string {
  return `${tool.server}/${tool.name}`;
}

/** `_` + 8 hex characters of a sha256 of `key`: what makes a cut or clashing name unique again. */
export function hashSuffix(key: string): string {
  return `_${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}

/** `name` cut to `max - 9` characters plus the hash suffix of `key`: the form a clashing or too long name gets. */
export function hashedName(name: string, key: string, max: number): string {
  const suffix = hashSuffix(key);
  return name.slice(0, max - suffix.length) + suffix;
}

/** `name` as is when it fits in `max`, else its hashed form. */
export function fitLength(name: string, key: string, max: number): string {
  return name.length <= max ? name : hashedName(name, key, max);
}

/**
 * Stable order (server, then name, by UTF-16 code units rather than locale) so rendered prefixes are byte-identical
 * across runs and machines, which prompt caches need.
 */
export function sortTools<T extends ToolKey>(tools: readonly T[]): T[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...tools].sort((a, b) => cmp(a.server, b.server) || cmp(a.name, b.name));
}

/** Names published by more than one server. */
export function sharedNames(tools: readonly ToolKey[]): Set<string> {
  const servers = new Map<string, Set<string>>();
  for (const t of tools) servers.set(t.name, (servers.get(t.name) ?? new Set()).add(t.server));
  return new Set([...servers].filter(([, s]) => s.size > 1).map(([name]) => name));
}

/** The name a tool is shown under in text: its own, or `server__tool` when another server publishes the same name. */
export function textName(tool: ToolKey, shared: ReadonlySet<string>): string {
  return shared.has(tool.name) ? `${tool.server}__${tool.name}` : tool.name;
}

/**
 * Text names for a tool list, sorted ({@link sortTools}): each tool with the name {@link textName} gives it.
 */
export function textNames<T extends ToolKey>(tools: readonly T[]): Array<{ name: string; tool: T }> {
  const shared = sharedNames(tools);
  return sortTools(tools).map((tool) => ({ name: textName(tool, shared), tool }));
}

/**
 * Names a native tool API accepts, for a tool list and the API's length limit (sorted tools): the text name with
 * invalid characters turned into `_`, cut past `max` and ended in the hash suffix of `server/tool`; a name that
 * still clashes with an earlier one gets the hash suffix too, and a numeric suffix if even that clashes. Pure:
 * the native renderer names tools with it, and name resolution matches recorded names against it.
 */
export function providerSafeNames<T extends ToolKey>(
  tools: readonly T[],
  max: number,
): Array<{ name: string; tool: T }> {
  const used = new Set<string>();
  return textNames(tools).map(({ name, tool }) => {
    const key = nameKey(tool);
    const cleaned = safeCharacters(name);
    let valid = fitLength(cleaned, key, max);
    if (used.has(valid) || !hasSafeCharacters(valid)) valid = hashedName(cleaned, key, max);
    const base = valid;
    for (let n = 2; used.has(valid); n++) valid = `${base.slice(0, max - String(n).length - 1)}_${n}`;
    used.add(valid);
    return { name: valid, tool };
  });
}
