import { indicatorsAt, type MonthlyIndicators } from './model.js';
import { defaultParameters, type ParameterValues, type ParamValue } from './parameters.js';

/** Months the simulation advances on every get_simulation_status call (it runs "in the background"). */
export const STEP_MONTHS = 6;

export interface Intervention {
  intervention_id: string;
  parameter_name: string;
  value: ParamValue;
  apply_at_month: number;
  description: string;
  status: 'pending' | 'applied' | 'cancelled';
}

export interface SimulationRun {
  run_id: string;
  status: 'running' | 'paused' | 'completed' | 'stopped';
  month: number;
  total_months: number;
  parameters: ParameterValues;
  history: MonthlyIndicators[];
  started_at: string;
}

export interface Experiment {
  experiment_name: string;
  status: string;
  description: string;
  source: 'history' | 'captured';
  created_at: string;
  parameters: ParameterValues;
  history: MonthlyIndicators[];
  interventions: Intervention[];
}

export interface EconomistState {
  parameters: ParameterValues;
  presets: Map<string, { description: string; parameters: ParameterValues }>;
  yamlConfigs: Map<string, { description: string; parameters: ParameterValues; path: string }>;
  simulation: SimulationRun | undefined;
  runCount: number;
  interventions: Intervention[];
  experiments: Map<string, Experiment>;
  analyses: Map<string, unknown>;
  /** Deterministic clock (ms since epoch); starts at the timestamp of case study 003's example config. */
  clock: number;
}

const CLOCK_START = Date.UTC(2025, 10, 22, 10, 15, 42);

export function runHistory(parameters: ParameterValues, months: number): MonthlyIndicators[] {
  return Array.from({ length: months }, (_, i) => indicatorsAt(parameters, i + 1));
}

function historical(name: string, description: string, overrides: ParameterValues, createdAt: string): Experiment {
  const parameters = { ...defaultParameters(), ...overrides };
  return {
    experiment_name: name,
    status: 'completed',
    description,
    source: 'history',
    created_at: createdAt,
    parameters,
    history: runHistory(parameters, Number(parameters.simulation_months)),
    interventions: [],
  };
}

export function createEconomistState(): EconomistState {
  const defaults = defaultParameters();
  const experiments = [
    historical('baseline_2025', 'Default parameters, 12 months', {}, '2025-10-01 09:00:00'),
    historical('high_tax_2025', 'income_tax_rate raised to 0.6', { income_tax_rate: 0.6 }, '2025-10-08 09:00:00'),
    historical(
      'ai_boom_2025',
      'Rapid AI adoption with innovation enabled',
      { ai_adoption_rate: 0.6, enable_innovation: true, innovation_probability: 0.15 },
      '2025-10-15 09:00:00',
    ),
  ];
  return {
    parameters: { ...defaults },
    presets: new Map([
      ['default', { description: 'Built-in default parameters', parameters: { ...defaults } }],
      [
        'high_innovation',
        {
          description: 'Innovation enabled with a high innovation probability',
          parameters: { ...defaults, enable_innovation: true, innovation_probability: 0.15, rd_investment_share: 0.05 },
        },
      ],
    ]),
    yamlConfigs: new Map([
      ['baseline', { description: 'Baseline economy', parameters: { ...defaults }, path: 'configs/baseline.yaml' }],
      [
        'ubi_pilot',
        {
          description: 'Universal basic income pilot of 500 per month',
          parameters: { ...defaults, universal_basic_income: 500 },
          path: 'configs/ubi_pilot.yaml',
        },
      ],
    ]),
    simulation: undefined,
    runCount: 0,
    interventions: [],
    experiments: new Map(experiments.map((e) => [e.experiment_name, e])),
    analyses: new Map(),
    clock: CLOCK_START,
  };
}

/** Returns the current deterministic time as `YYYY-MM-DD HH:MM:SS` and advances the clock by one minute. */
export function tick(state: EconomistState): string {
  const iso = new Date(state.clock).toISOString();
  state.clock += 60_000;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** `YYYYMMDD_HHMMSS` form of a tick() timestamp (used in generated config names). */
export function compactStamp(stamp: string): string {
  return stamp.replace(/-/g, '').replace(' ', '_').replace(/:/g, '');
}

/** Advances a running simulation by up to `months`, applying pending interventions at their month. */
export function advance(state: EconomistState, months: number): void {
  const sim = state.simulation;
  if (sim?.status !== 'running') return;
  const end = Math.min(sim.total_months, sim.month + months);
  for (let m = sim.month + 1; m <= end; m++) {
    for (const iv of state.interventions) {
      if (iv.status === 'pending' && iv.apply_at_month === m) {
        sim.parameters[iv.parameter_name] = iv.value;
        iv.status = 'applied';
      }
    }
    sim.history.push(indicatorsAt(sim.parameters, m));
    sim.month = m;
  }
  if (sim.month >= sim.total_months) sim.status = 'completed';
}
