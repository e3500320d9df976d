import type { ToolDef } from '../contracts/tool.js';
import type { SemanticIssue } from './load-yaml.js';
import { listNames, suggestion } from './name-suggestion.js';

/**
 * The parameter names a tool's input schema declares, or undefined when it declares none it would hold to: a schema
 * without `properties`, or one that accepts other names (`additionalProperties` other than `false`, or
 * `patternProperties`). JSON Schema accepts undeclared properties unless told not to, but a tool schema that lists its
 * properties means them: an expected argument outside the list is a typo (or a stale suite) far more often than a
 * parameter the tool takes unlisted, so only an explicit `additionalProperties: true` (or a schema) opens the list.
 */
export function declaredParameters(inputSchema: Readonly<Record<string, unknown>>): string[] | undefined {
  const properties = inputSchema.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return undefined;
  const additional = inputSchema.additionalProperties;
  if ((additional !== undefined && additional !== false) || inputSchema.patternProperties !== undefined) {
    return undefined;
  }
  return Object.keys(properties);
}

/** Parameter names against the tool's declared ones. */
export function checkParameters(
  toolName: string,
  tool: ToolDef,
  mentioned: Array<{ name: string; path: PropertyKey[] }>,
  at: PropertyKey[],
): SemanticIssue[] {
  const declared = declaredParameters(tool.inputSchema);
  if (!declared) return [];
  const issues: SemanticIssue[] = [];
  for (const { name, path } of mentioned) {
    if (declared.includes(name)) continue;
    issues.push({
      path: [...at, ...path],
      message:
        `'${name}' is not a parameter of ${toolName}${suggestion(name, declared)} (its parameters: ${listNames(declared)}); ` +
        'fix the name, or remove it from the expected call',
    });
  }
  return issues;
}
