import { type MockTool, ToolFailure } from '../tool-kit.js';
import {
  checkValue,
  defaultParameters,
  describeParameter,
  PARAMETER_CATEGORIES,
  PARAMETER_NAMES,
  PARAMETER_SPECS,
  specOf,
  validateAssignments,
} from './parameters.js';
import type { EconomistState } from './state.js';

type Tool = MockTool<EconomistState>;

const parameterName = {
  type: 'string',
  description: "Parameter name, e.g. 'income_tax_rate'. Call get_all_parameters for the full list.",
};
const parameterValue = {
  type: ['number', 'boolean'],
  description: 'New value: a number within the range of get_parameter_ranges, or true/false for boolean parameters',
};
const presetName = { type: 'string', description: "Preset name, e.g. 'high_innovation'" };
const category = {
  type: 'string',
  enum: [...PARAMETER_CATEGORIES],
  description: 'Only return parameters of this category (omit for all)',
};

/** Group 1 of case study 003: parameter management (10 tools). */
export const parameterTools: Tool[] = [
  {
    name: 'get_all_parameters',
    description: '获取所有参数 — Get all simulation parameters with their current values, grouped by category.',
    inputSchema: { type: 'object', properties: { category } },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const specs = PARAMETER_SPECS.filter((s) => args.category === undefined || s.category === args.category);
      const grouped: Record<string, Record<string, unknown>> = {};
      for (const s of specs) {
        grouped[s.category] ??= {};
        (grouped[s.category] as Record<string, unknown>)[s.name] = state.parameters[s.name];
      }
      return { count: specs.length, parameters: grouped };
    },
  },
  {
    name: 'get_parameter',
    description:
      '获取单个参数的详细信息 — Get one parameter: current value, default, type, valid range and description.',
    inputSchema: { type: 'object', properties: { parameter_name: parameterName }, required: ['parameter_name'] },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const spec = specOf(String(args.parameter_name));
      return describeParameter(spec, state.parameters[spec.name] ?? spec.default);
    },
  },
  {
    name: 'set_parameter',
    description: 'Set one simulation parameter. The value is checked against the parameter type and range.',
    inputSchema: {
      type: 'object',
      properties: { parameter_name: parameterName, value: parameterValue },
      required: ['parameter_name', 'value'],
    },
    handler: (args, state) => {
      const spec = specOf(String(args.parameter_name));
      const problem = checkValue(spec, args.value);
      if (problem) throw new ToolFailure(problem);
      const old = state.parameters[spec.name];
      state.parameters[spec.name] = args.value as number | boolean;
      return { success: true, parameter_name: spec.name, old_value: old, new_value: args.value };
    },
  },
  {
    name: 'batch_set_parameters',
    description:
      'Set several parameters at once, e.g. {"innovation_probability": 0.15, "enable_innovation": true}. ' +
      'All values are validated first; if any is invalid nothing is changed.',
    inputSchema: {
      type: 'object',
      properties: {
        parameters: {
          type: 'object',
          description: 'Map of parameter name to new value',
          additionalProperties: { type: ['number', 'boolean'] },
          minProperties: 1,
        },
      },
      required: ['parameters'],
    },
    handler: (args, state) => {
      const values = validateAssignments(args.parameters as Record<string, unknown>);
      const changes = Object.entries(values).map(([name, value]) => {
        const change = { parameter_name: name, old_value: state.parameters[name], new_value: value };
        state.parameters[name] = value;
        return change;
      });
      return { success: true, updated: changes.length, changes };
    },
  },
  {
    name: 'validate_parameters',
    description:
      'Validate parameter values (the given map, or the current parameters when omitted): types, ranges and ' +
      'combinations that make no economic sense. Changes nothing.',
    inputSchema: {
      type: 'object',
      properties: {
        parameters: {
          type: 'object',
          description: 'Optional map of parameter name to value to check on top of the current parameters',
        },
      },
    },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const proposed = { ...state.parameters, ...((args.parameters as Record<string, unknown>) ?? {}) };
      const errors: string[] = [];
      for (const [name, value] of Object.entries(proposed)) {
        const spec = PARAMETER_SPECS.find((s) => s.name === name);
        if (!spec) errors.push(`unknown parameter '${name}'; valid parameters: ${PARAMETER_NAMES.join(', ')}`);
        else {
          const problem = checkValue(spec, value);
          if (problem) errors.push(problem);
        }
      }
      const warnings: string[] = [];
      if (proposed.enable_innovation !== true && Number(proposed.innovation_probability) > 0.05) {
        warnings.push('innovation_probability has no effect while enable_innovation is false');
      }
      if (Number(proposed.income_tax_rate) + Number(proposed.vat_rate) > 0.8) {
        warnings.push('income_tax_rate + vat_rate exceeds 0.8: households keep very little income');
      }
      return { valid: errors.length === 0, errors, warnings };
    },
  },
  {
    name: 'reset_parameters',
    description: 'Reset parameters to their defaults: the listed ones, or all of them when parameter_names is omitted.',
    inputSchema: {
      type: 'object',
      properties: {
        parameter_names: {
          type: 'array',
          items: { type: 'string' },
          description: 'Parameters to reset (omit for all)',
        },
      },
    },
    handler: (args, state) => {
      const names = (args.parameter_names as string[] | undefined) ?? [...PARAMETER_NAMES];
      for (const n of names) specOf(n);
      const defaults = defaultParameters();
      for (const n of names) state.parameters[n] = defaults[n] as number | boolean;
      return { success: true, reset: names };
    },
  },
  {
    name: 'save_preset',
    description: 'Save the current parameters as a named preset that load_preset can restore later.',
    inputSchema: {
      type: 'object',
      properties: {
        preset_name: presetName,
        description: { type: 'string', description: 'What the preset is for' },
      },
      required: ['preset_name'],
    },
    handler: (args, state) => {
      const name = String(args.preset_name);
      const overwritten = state.presets.has(name);
      state.presets.set(name, { description: String(args.description ?? ''), parameters: { ...state.parameters } });
      return { success: true, preset_name: name, overwritten, parameter_count: Object.keys(state.parameters).length };
    },
  },
  {
    name: 'load_preset',
    description: 'Replace the current parameters with a saved preset.',
    inputSchema: { type: 'object', properties: { preset_name: presetName }, required: ['preset_name'] },
    handler: (args, state) => {
      const name = String(args.preset_name);
      const preset = state.presets.get(name);
      if (!preset)
        throw new ToolFailure(`Unknown preset '${name}'. Saved presets: ${[...state.presets.keys()].join(', ')}`);
      state.parameters = { ...preset.parameters };
      return { success: true, preset_name: name, parameters: preset.parameters };
    },
  },
  {
    name: 'list_presets',
    description: 'List saved parameter presets.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    handler: (_args, state) => ({
      presets: [...state.presets].map(([name, p]) => ({ preset_name: name, description: p.description })),
    }),
  },
  {
    name: 'get_parameter_ranges',
    description: 'Get the type and valid range (min, max) of every parameter, optionally for one category.',
    inputSchema: { type: 'object', properties: { category } },
    annotations: { readOnlyHint: true },
    handler: (args) =>
      Object.fromEntries(
        PARAMETER_SPECS.filter((s) => args.category === undefined || s.category === args.category).map((s) => [
          s.name,
          s.type === 'boolean' ? { type: s.type } : { type: s.type, min: s.min, max: s.max },
        ]),
      ),
  },
];
