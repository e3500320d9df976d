import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** Every .yaml / .yml file below `dir`. */
export function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** The located parser's data, as load-yaml reads a file (the reference the fast parsers are held to). */
export function located(text: string): { data: unknown } | undefined {
  try {
    return { data: parse(text, { uniqueKeys: true, maxAliasCount: 100 }) };
  } catch {
    return undefined;
  }
}
