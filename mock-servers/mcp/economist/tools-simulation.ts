import { type MockTool, ToolFailure } from '../tool-kit.js';
import { firmSummary, householdSummary, INDICATOR_NAMES, type MonthlyIndicators } from './model.js';
import { advance, type EconomistState, type SimulationRun, STEP_MONTHS, tick } from './state.js';

type Tool = MockTool<EconomistState>;

function statusOf(state: EconomistState) {
  const sim = state.simulation;
  if (!sim)
    return { running: false, status: 'idle', message: 'No simulation has been started. Call start_simulation.' };
  return {
    run_id: sim.run_id,
    running: sim.status === 'running' || sim.status === 'paused',
    paused: sim.status === 'paused',
    status: sim.status,
    current_month: sim.month,
    total_months: sim.total_months,
    progress_percent: Math.round((100 * sim.month) / sim.total_months),
    ...(sim.history.length > 0 ? { latest_indicators: sim.history[sim.history.length - 1] } : {}),
  };
}

/** The run whose data the indicator tools read; fails with guidance when nothing has run yet. */
function latestRun(state: EconomistState): SimulationRun & { latest: MonthlyIndicators } {
  const sim = state.simulation;
  const latest = sim?.history[sim.history.length - 1];
  if (!sim || !latest) {
    throw new ToolFailure(
      'No simulation data yet. Call start_simulation, then get_simulation_status to let it progress.',
    );
  }
  return { ...sim, latest };
}

const topLevel = { type: 'object', properties: {} };

/** Group 4 of case study 003: simulation control (7 tools). */
export const simulationTools: Tool[] = [
  {
    name: 'start_simulation',
    description:
      'Start a simulation run with the current parameters. It runs in the background: every get_simulation_status ' +
      `call advances it by ${STEP_MONTHS} months until simulation_months is reached.`,
    inputSchema: topLevel,
    handler: (_args, state) => {
      const sim = state.simulation;
      if (sim && (sim.status === 'running' || sim.status === 'paused')) {
        throw new ToolFailure(
          `Simulation ${sim.run_id} is already ${sim.status}. Call stop_simulation before starting a new one.`,
        );
      }
      state.runCount += 1;
      const run: SimulationRun = {
        run_id: `run_${String(state.runCount).padStart(3, '0')}`,
        status: 'running',
        month: 0,
        total_months: Number(state.parameters.simulation_months),
        parameters: { ...state.parameters },
        history: [],
        started_at: tick(state),
      };
      state.simulation = run;
      return {
        simulation_started: true,
        run_id: run.run_id,
        total_months: run.total_months,
        started_at: run.started_at,
      };
    },
  },
  {
    name: 'get_simulation_status',
    description: `Get the status of the current simulation (running, current_month, total_months). Poll until running is false; each call advances the run by ${STEP_MONTHS} months.`,
    inputSchema: topLevel,
    handler: (_args, state) => {
      advance(state, STEP_MONTHS);
      return statusOf(state);
    },
  },
  {
    name: 'stop_simulation',
    description:
      'Stop the running (or paused) simulation; the months simulated so far are kept for capture_experiment.',
    inputSchema: topLevel,
    handler: (_args, state) => {
      const sim = state.simulation;
      if (!sim || (sim.status !== 'running' && sim.status !== 'paused')) {
        throw new ToolFailure(
          `No simulation is running (status: ${sim?.status ?? 'idle'}). stop_simulation is valid only while a simulation is running or paused; call start_simulation first.`,
        );
      }
      sim.status = 'stopped';
      return { success: true, run_id: sim.run_id, stopped_at_month: sim.month, total_months: sim.total_months };
    },
  },
  {
    name: 'get_economic_indicators',
    description:
      'Get selected macroeconomic indicators of the current simulation, at the latest month or a given month.',
    inputSchema: {
      type: 'object',
      properties: {
        indicator_names: {
          type: 'array',
          items: { type: 'string', enum: [...INDICATOR_NAMES] },
          minItems: 1,
          description: 'Indicators to return',
        },
        month: { type: 'integer', minimum: 1, description: 'Simulated month (default: the latest simulated month)' },
      },
      required: ['indicator_names'],
    },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const run = latestRun(state);
      const month = (args.month as number | undefined) ?? run.latest.month;
      const row = run.history.find((h) => h.month === month);
      if (!row) throw new ToolFailure(`Month ${month} has not been simulated; valid months are 1 to ${run.month}.`);
      const names = args.indicator_names as (keyof MonthlyIndicators)[];
      return { month, ...Object.fromEntries(names.map((n) => [n, row[n]])) };
    },
  },
  {
    name: 'get_all_economic_indicators',
    description: 'Get every macroeconomic indicator of the current simulation at the latest simulated month.',
    inputSchema: topLevel,
    annotations: { readOnlyHint: true },
    handler: (_args, state) => ({ run_id: latestRun(state).run_id, ...latestRun(state).latest }),
  },
  {
    name: 'get_household_summary',
    description: 'Summarise household agents: employment, average wealth and wealth share by quintile.',
    inputSchema: topLevel,
    annotations: { readOnlyHint: true },
    handler: (_args, state) => {
      const run = latestRun(state);
      return householdSummary(run.parameters, run.latest);
    },
  },
  {
    name: 'get_firm_summary',
    description: 'Summarise firm agents: AI adoption, innovation, revenue and employees per firm.',
    inputSchema: topLevel,
    annotations: { readOnlyHint: true },
    handler: (_args, state) => {
      const run = latestRun(state);
      return firmSummary(run.parameters, run.latest);
    },
  },
];
