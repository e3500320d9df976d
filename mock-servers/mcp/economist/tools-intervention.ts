import { type MockTool, ToolFailure } from '../tool-kit.js';
import { checkValue, specOf } from './parameters.js';
import type { EconomistState, Intervention, SimulationRun } from './state.js';

type Tool = MockTool<EconomistState>;

function activeRun(state: EconomistState, action: string): SimulationRun {
  const sim = state.simulation;
  if (!sim || (sim.status !== 'running' && sim.status !== 'paused')) {
    throw new ToolFailure(
      `Cannot ${action}: no simulation is running (status: ${sim?.status ?? 'idle'}). Call start_simulation first.`,
    );
  }
  return sim;
}

const pending = (state: EconomistState): Intervention[] => state.interventions.filter((i) => i.status === 'pending');

/** Group 3 of case study 003: intervention control (5 tools). */
export const interventionTools: Tool[] = [
  {
    name: 'pause_simulation',
    description:
      'Pause the running simulation (get_simulation_status no longer advances it) so interventions can be planned.',
    inputSchema: { type: 'object', properties: {} },
    handler: (_args, state) => {
      const sim = activeRun(state, 'pause');
      if (sim.status === 'paused')
        throw new ToolFailure(`Simulation ${sim.run_id} is already paused; call resume_simulation.`);
      sim.status = 'paused';
      return { success: true, run_id: sim.run_id, paused_at_month: sim.month };
    },
  },
  {
    name: 'resume_simulation',
    description: 'Resume a paused simulation.',
    inputSchema: { type: 'object', properties: {} },
    handler: (_args, state) => {
      const sim = activeRun(state, 'resume');
      if (sim.status !== 'paused')
        throw new ToolFailure(`Simulation ${sim.run_id} is not paused (status: ${sim.status}).`);
      sim.status = 'running';
      return { success: true, run_id: sim.run_id, resumed_at_month: sim.month };
    },
  },
  {
    name: 'inject_intervention',
    description:
      'Schedule a policy intervention: at the start of month apply_at_month the parameter takes the new value ' +
      '(e.g. raise income_tax_rate to 0.5 at month 7). Needs a running or paused simulation.',
    inputSchema: {
      type: 'object',
      properties: {
        parameter_name: { type: 'string', description: "Parameter to change, e.g. 'income_tax_rate'" },
        value: { type: ['number', 'boolean'], description: 'Value the parameter takes from that month on' },
        apply_at_month: {
          type: 'integer',
          minimum: 1,
          description: 'Simulated month at which the change takes effect (must be after the current month)',
        },
        description: { type: 'string', description: 'Why the intervention is made' },
      },
      required: ['parameter_name', 'value', 'apply_at_month'],
    },
    handler: (args, state) => {
      const sim = activeRun(state, 'inject an intervention');
      const spec = specOf(String(args.parameter_name));
      const problem = checkValue(spec, args.value);
      if (problem) throw new ToolFailure(problem);
      const month = Number(args.apply_at_month);
      if (month <= sim.month || month > sim.total_months) {
        throw new ToolFailure(
          `apply_at_month ${month} is not valid: choose a month from ${sim.month + 1} to ${sim.total_months} (current month is ${sim.month}).`,
        );
      }
      const iv: Intervention = {
        intervention_id: `int_${String(state.interventions.length + 1).padStart(3, '0')}`,
        parameter_name: spec.name,
        value: args.value as number | boolean,
        apply_at_month: month,
        description: String(args.description ?? ''),
        status: 'pending',
      };
      state.interventions.push(iv);
      return { success: true, ...iv };
    },
  },
  {
    name: 'list_pending_interventions',
    description: 'List interventions that are scheduled but not yet applied.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    handler: (_args, state) => ({ count: pending(state).length, interventions: pending(state) }),
  },
  {
    name: 'cancel_intervention',
    description: 'Cancel a pending intervention by its id (from inject_intervention or list_pending_interventions).',
    inputSchema: {
      type: 'object',
      properties: { intervention_id: { type: 'string', description: "Intervention id, e.g. 'int_001'" } },
      required: ['intervention_id'],
    },
    handler: (args, state) => {
      const id = String(args.intervention_id);
      const iv = pending(state).find((i) => i.intervention_id === id);
      if (!iv) {
        const ids = pending(state).map((i) => i.intervention_id);
        throw new ToolFailure(
          `No pending intervention '${id}'. Pending interventions: ${ids.length > 0 ? ids.join(', ') : '(none)'}`,
        );
      }
      iv.status = 'cancelled';
      return { success: true, intervention_id: id, status: 'cancelled' };
    },
  },
];
