import type { EconomistState } from './state.js';

/**
 * The economist server's state view (`expect.state`): the parameters as they stand, the saved presets and YAML
 * configs, the simulation run, the interventions and the experiments (without their month-by-month histories).
 * Read-only: a copy made when it is read.
 */
export function economistStateView(state: EconomistState): unknown {
  const sim = state.simulation;
  return {
    parameters: { ...state.parameters },
    presets: Object.fromEntries(
      [...state.presets].map(([name, p]) => [name, { description: p.description, parameters: { ...p.parameters } }]),
    ),
    configs: Object.fromEntries(
      [...state.yamlConfigs].map(([name, c]) => [
        name,
        { description: c.description, path: c.path, parameters: { ...c.parameters } },
      ]),
    ),
    simulation: sim
      ? {
          run_id: sim.run_id,
          status: sim.status,
          month: sim.month,
          total_months: sim.total_months,
          parameters: { ...sim.parameters },
        }
      : null,
    interventions: state.interventions.map((iv) => ({ ...iv })),
    experiments: Object.fromEntries(
      [...state.experiments].map(([name, e]) => [
        name,
        { status: e.status, description: e.description, source: e.source, parameters: { ...e.parameters } },
      ]),
    ),
  };
}
