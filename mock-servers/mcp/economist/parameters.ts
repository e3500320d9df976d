import { ToolFailure } from '../tool-kit.js';

/**
 * The simulation parameters of the economist server (case study 003: an "ai-economist-parameter-server"
 * whose example parameters are income_tax_rate = 0.45, innovation_probability and enable_innovation).
 * The write-up names only those three; the rest is a plausible completion for an agent-based macro model.
 */
export type ParamValue = number | boolean;

export const PARAMETER_CATEGORIES = [
  'tax_policy',
  'labor_market',
  'innovation',
  'monetary',
  'population',
  'simulation',
] as const;
export type ParameterCategory = (typeof PARAMETER_CATEGORIES)[number];

export interface ParameterSpec {
  name: string;
  category: ParameterCategory;
  type: 'float' | 'integer' | 'boolean';
  default: ParamValue;
  min?: number;
  max?: number;
  unit?: string;
  description: string;
}

export const PARAMETER_SPECS: readonly ParameterSpec[] = [
  {
    name: 'income_tax_rate',
    category: 'tax_policy',
    type: 'float',
    default: 0.45,
    min: 0,
    max: 0.9,
    description: 'Top marginal income tax rate',
  },
  {
    name: 'corporate_tax_rate',
    category: 'tax_policy',
    type: 'float',
    default: 0.25,
    min: 0,
    max: 0.6,
    description: 'Tax rate on firm profits',
  },
  {
    name: 'vat_rate',
    category: 'tax_policy',
    type: 'float',
    default: 0.1,
    min: 0,
    max: 0.3,
    description: 'Value-added tax on consumption',
  },
  {
    name: 'universal_basic_income',
    category: 'tax_policy',
    type: 'float',
    default: 0,
    min: 0,
    max: 3000,
    unit: 'currency/month',
    description: 'Monthly transfer paid to every household',
  },
  {
    name: 'minimum_wage',
    category: 'labor_market',
    type: 'float',
    default: 1500,
    min: 0,
    max: 5000,
    unit: 'currency/month',
    description: 'Legal monthly minimum wage',
  },
  {
    name: 'unemployment_benefit',
    category: 'labor_market',
    type: 'float',
    default: 800,
    min: 0,
    max: 3000,
    unit: 'currency/month',
    description: 'Monthly benefit paid to unemployed households',
  },
  {
    name: 'ai_adoption_rate',
    category: 'labor_market',
    type: 'float',
    default: 0.1,
    min: 0,
    max: 1,
    description: 'Share of firms that deploy AI agents',
  },
  {
    name: 'labor_productivity',
    category: 'labor_market',
    type: 'float',
    default: 1,
    min: 0.5,
    max: 3,
    description: 'Output per worker relative to the baseline',
  },
  {
    name: 'enable_innovation',
    category: 'innovation',
    type: 'boolean',
    default: false,
    description: 'Whether firms can innovate (new products, productivity jumps)',
  },
  {
    name: 'innovation_probability',
    category: 'innovation',
    type: 'float',
    default: 0.05,
    min: 0,
    max: 1,
    description: 'Monthly probability that a firm innovates (needs enable_innovation)',
  },
  {
    name: 'rd_investment_share',
    category: 'innovation',
    type: 'float',
    default: 0.02,
    min: 0,
    max: 0.2,
    description: 'Share of firm revenue spent on R&D',
  },
  {
    name: 'interest_rate',
    category: 'monetary',
    type: 'float',
    default: 0.03,
    min: 0,
    max: 0.2,
    description: 'Central bank policy rate (annual)',
  },
  {
    name: 'money_supply_growth',
    category: 'monetary',
    type: 'float',
    default: 0.02,
    min: -0.1,
    max: 0.3,
    description: 'Annual growth of the money supply',
  },
  {
    name: 'num_households',
    category: 'population',
    type: 'integer',
    default: 100,
    min: 10,
    max: 10000,
    description: 'Number of household agents',
  },
  {
    name: 'num_firms',
    category: 'population',
    type: 'integer',
    default: 10,
    min: 1,
    max: 1000,
    description: 'Number of firm agents',
  },
  {
    name: 'consumption_propensity',
    category: 'population',
    type: 'float',
    default: 0.8,
    min: 0.1,
    max: 1,
    description: 'Share of disposable income households consume',
  },
  {
    name: 'simulation_months',
    category: 'simulation',
    type: 'integer',
    default: 12,
    min: 1,
    max: 240,
    description: 'Length of a simulation run in months',
  },
  {
    name: 'random_seed',
    category: 'simulation',
    type: 'integer',
    default: 42,
    min: 0,
    max: 2147483647,
    description: 'Seed of the simulation (runs are deterministic)',
  },
];

export const PARAMETER_NAMES: readonly string[] = PARAMETER_SPECS.map((p) => p.name);

export type ParameterValues = Record<string, ParamValue>;

export function defaultParameters(): ParameterValues {
  return Object.fromEntries(PARAMETER_SPECS.map((p) => [p.name, p.default]));
}

export function specOf(name: string): ParameterSpec {
  const spec = PARAMETER_SPECS.find((p) => p.name === name);
  if (!spec) {
    throw new ToolFailure(`Unknown parameter '${name}'. Valid parameters: ${PARAMETER_NAMES.join(', ')}`);
  }
  return spec;
}

/** Checks one value against its parameter's type and range; returns the problem, or undefined when valid. */
export function checkValue(spec: ParameterSpec, value: unknown): string | undefined {
  if (spec.type === 'boolean') {
    return typeof value === 'boolean' ? undefined : `${spec.name} must be true or false (got ${JSON.stringify(value)})`;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return `${spec.name} must be a number in [${spec.min}, ${spec.max}] (got ${JSON.stringify(value)})`;
  }
  if (spec.type === 'integer' && !Number.isInteger(value)) {
    return `${spec.name} must be an integer in [${spec.min}, ${spec.max}] (got ${value})`;
  }
  if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
    return `${spec.name} = ${value} is out of range; valid range is [${spec.min}, ${spec.max}]`;
  }
  return undefined;
}

/** Validates a whole name → value map; throws one ToolFailure listing every problem (nothing is applied). */
export function validateAssignments(values: Record<string, unknown>): ParameterValues {
  const problems: string[] = [];
  const unknown = Object.keys(values).filter((k) => !PARAMETER_NAMES.includes(k));
  if (unknown.length > 0) {
    problems.push(
      `unknown parameter(s) ${unknown.map((u) => `'${u}'`).join(', ')}; valid parameters: ${PARAMETER_NAMES.join(', ')}`,
    );
  }
  for (const [name, value] of Object.entries(values)) {
    const spec = PARAMETER_SPECS.find((p) => p.name === name);
    const problem = spec ? checkValue(spec, value) : undefined;
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) throw new ToolFailure(`Invalid parameters: ${problems.join('; ')}`);
  return values as ParameterValues;
}

export function describeParameter(spec: ParameterSpec, value: ParamValue) {
  return {
    name: spec.name,
    value,
    default: spec.default,
    type: spec.type,
    category: spec.category,
    ...(spec.min !== undefined ? { min: spec.min, max: spec.max } : {}),
    ...(spec.unit ? { unit: spec.unit } : {}),
    description: spec.description,
  };
}
