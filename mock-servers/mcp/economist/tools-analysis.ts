import { type MockTool, ToolFailure } from '../tool-kit.js';
import { analyse, findExperiment } from './analysis.js';
import { type EconomistState, type Experiment, tick } from './state.js';

type Tool = MockTool<EconomistState>;

const experimentName = {
  type: 'string',
  description: "Experiment name, e.g. 'ai_labor_market_2025'",
  pattern: '^[A-Za-z0-9_.-]+$',
};
const EXPERIMENT_STATUSES = ['running', 'completed', 'stopped', 'failed', 'archived'];

/** Group 6 of case study 003: experiment capture and analysis (5 tools). */
export const analysisTools: Tool[] = [
  {
    name: 'capture_experiment',
    description:
      'Capture the finished (or stopped) simulation run as a named experiment, with its parameters and monthly data, ' +
      'so analyze_experiment can analyse it.',
    inputSchema: {
      type: 'object',
      properties: {
        experiment_name: experimentName,
        status: { type: 'string', enum: EXPERIMENT_STATUSES, default: 'completed', description: 'Status to record' },
        description: { type: 'string', description: 'What the experiment tests' },
      },
      required: ['experiment_name'],
    },
    handler: (args, state) => {
      const name = String(args.experiment_name);
      const sim = state.simulation;
      if (!sim) throw new ToolFailure('No simulation run to capture. Call start_simulation first.');
      if (sim.status === 'running' || sim.status === 'paused') {
        throw new ToolFailure(
          `Simulation ${sim.run_id} is still ${sim.status} (month ${sim.month} of ${sim.total_months}). ` +
            'Poll get_simulation_status until running is false, or call stop_simulation, then capture.',
        );
      }
      if (state.experiments.has(name)) {
        throw new ToolFailure(`An experiment named '${name}' already exists; choose another experiment_name.`);
      }
      const exp: Experiment = {
        experiment_name: name,
        status: String(args.status ?? 'completed'),
        description: String(args.description ?? ''),
        source: 'captured',
        created_at: tick(state),
        parameters: { ...sim.parameters },
        history: [...sim.history],
        interventions: state.interventions.filter((i) => i.status === 'applied'),
      };
      state.experiments.set(name, exp);
      return {
        success: true,
        experiment_name: name,
        run_id: sim.run_id,
        status: exp.status,
        months_captured: exp.history.length,
        created_at: exp.created_at,
      };
    },
  },
  {
    name: 'update_experiment_status',
    description: 'Change the recorded status of an experiment.',
    inputSchema: {
      type: 'object',
      properties: {
        experiment_name: experimentName,
        status: { type: 'string', enum: EXPERIMENT_STATUSES, description: 'New status' },
      },
      required: ['experiment_name', 'status'],
    },
    handler: (args, state) => {
      const exp = findExperiment(state, String(args.experiment_name));
      const old = exp.status;
      exp.status = String(args.status);
      return { success: true, experiment_name: exp.experiment_name, old_status: old, new_status: exp.status };
    },
  },
  {
    name: 'analyze_experiment',
    description:
      'Analyse an experiment: macro metrics (GDP growth, unemployment, inflation, Gini, tax revenue), micro metrics ' +
      '(wages, wealth distribution, AI adoption) and optionally innovation metrics, plus a conclusion.',
    inputSchema: {
      type: 'object',
      properties: {
        experiment_name: experimentName,
        include_innovation: { type: 'boolean', default: false, description: 'Also report innovation metrics' },
      },
      required: ['experiment_name'],
    },
    handler: (args, state) => {
      const exp = findExperiment(state, String(args.experiment_name));
      const result = analyse(exp, args.include_innovation === true);
      state.analyses.set(exp.experiment_name, result);
      return result;
    },
  },
  {
    name: 'list_experiments',
    description: 'List the experiments captured in this session with their status and whether they were analysed.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    handler: (_args, state) => ({
      experiments: [...state.experiments.values()]
        .filter((e) => e.source === 'captured')
        .map((e) => ({
          experiment_name: e.experiment_name,
          status: e.status,
          months: e.history.length,
          analysed: state.analyses.has(e.experiment_name),
          created_at: e.created_at,
        })),
    }),
  },
  {
    name: 'get_analysis_result',
    description: 'Get the stored result of a previous analyze_experiment call.',
    inputSchema: { type: 'object', properties: { experiment_name: experimentName }, required: ['experiment_name'] },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const exp = findExperiment(state, String(args.experiment_name));
      const result = state.analyses.get(exp.experiment_name);
      if (!result) {
        throw new ToolFailure(
          `Experiment '${exp.experiment_name}' has not been analysed yet. Call analyze_experiment first.`,
        );
      }
      return result;
    },
  },
];
