import { z } from 'zod';
import type { StripPart } from '../config/variant-schema.js';
import type { ToolDef } from '../contracts/tool.js';
import { mapSchemaNodes, withParameterDescription } from './schema-nodes.js';

/**
 * A descriptions file: per tool (by name, or `server/name`), a new description, new parameter descriptions (by name,
 * or a dotted path for a nested field: `options.bold`), and example inputs appended to the description.
 */
export const DescriptionOverridesSchema = z.record(
  z.string().min(1),
  z
    .object({
      description: z.string().optional(),
      parameters: z.record(z.string().min(1), z.string()).optional(),
      examples: z
        .array(z.record(z.string(), z.unknown()))
        .optional()
        .describe('Example inputs (argument objects), shown after the description: "Example input: {…}"'),
    })
    .strict(),
);
export type DescriptionOverrides = z.infer<typeof DescriptionOverridesSchema>;
export type ToolOverride = DescriptionOverrides[string];

/** The override of `tool` in a descriptions file: by `server/name` first, then by name. */
export function overrideOf(overrides: DescriptionOverrides, tool: ToolDef): ToolOverride | undefined {
  const qualified = `${tool.server}/${tool.name}`;
  if (Object.hasOwn(overrides, qualified)) return overrides[qualified];
  return Object.hasOwn(overrides, tool.name) ? overrides[tool.name] : undefined;
}

/** `tool` with the descriptions a descriptions file gives it. */
export function overrideTool(tool: ToolDef, override: ToolOverride | undefined): ToolDef {
  if (!override) return tool;
  let out = tool;
  if (override.description !== undefined) out = { ...out, description: override.description };
  for (const [path, description] of Object.entries(override.parameters ?? {})) {
    out = { ...out, inputSchema: withParameterDescription(out.inputSchema, path, description) };
  }
  if (override.examples?.length) {
    // where every renderer shows it, native definitions included: in the description
    const lines = override.examples.map((x) => `Example input: ${JSON.stringify(x)}`);
    out = { ...out, description: [out.description ?? '', ...lines].filter((l) => l).join('\n') };
  }
  return out;
}

/** `tool` without the parts named: its description (and title), parameter descriptions, enums, defaults. */
export function stripTool(tool: ToolDef, parts: readonly StripPart[]): ToolDef {
  if (parts.length === 0) return tool;
  let out: ToolDef = { ...tool };
  if (parts.includes('descriptions')) {
    delete out.description;
    delete out.title;
  }
  const keys: string[] = [];
  if (parts.includes('parameter-descriptions')) keys.push('description', 'title');
  if (parts.includes('enums')) keys.push('enum');
  if (parts.includes('defaults')) keys.push('default');
  if (keys.length > 0) {
    out = {
      ...out,
      inputSchema: mapSchemaNodes(out.inputSchema, (node) => {
        for (const k of keys) delete node[k];
        return node;
      }),
    };
  }
  return out;
}

/** `text` cut to `max` characters, the last one an ellipsis when anything was cut. */
export function truncateText(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** `tool` with its description and every parameter description cut to `max` characters. */
export function truncateTool(tool: ToolDef, max: number): ToolDef {
  const out: ToolDef = { ...tool };
  if (typeof out.description === 'string') out.description = truncateText(out.description, max);
  out.inputSchema = mapSchemaNodes(out.inputSchema, (node) => {
    if (typeof node.description === 'string') node.description = truncateText(node.description, max);
    return node;
  });
  return out;
}
