import { ToolFailure } from '../tool-kit.js';
import { firmSummary, householdSummary, type MonthlyIndicators, round } from './model.js';
import { defaultParameters } from './parameters.js';
import type { EconomistState, Experiment } from './state.js';

export function findExperiment(state: EconomistState, name: string): Experiment {
  const exp = state.experiments.get(name);
  if (!exp) {
    throw new ToolFailure(
      `Unknown experiment '${name}'. Known experiments: ${[...state.experiments.keys()].join(', ')}`,
    );
  }
  return exp;
}

function endpoints(exp: Experiment): [MonthlyIndicators, MonthlyIndicators] {
  const first = exp.history[0];
  const last = exp.history[exp.history.length - 1];
  if (!first || !last) throw new ToolFailure(`Experiment '${exp.experiment_name}' has no simulated months to analyse.`);
  return [first, last];
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
export const percent = (rate: number): string => `${round(rate * 100, 2)}%`;

/** Parameters that differ from the defaults (what makes this experiment different from the baseline). */
export function changedParameters(exp: Experiment): Record<string, unknown> {
  const defaults = defaultParameters();
  return Object.fromEntries(Object.entries(exp.parameters).filter(([k, v]) => defaults[k] !== v));
}

export function summarise(exp: Experiment) {
  const [, last] = endpoints(exp);
  return {
    experiment_name: exp.experiment_name,
    status: exp.status,
    description: exp.description,
    source: exp.source,
    created_at: exp.created_at,
    months: exp.history.length,
    changed_parameters: changedParameters(exp),
    interventions_applied: exp.interventions.filter((i) => i.status === 'applied').length,
    final_indicators: last,
  };
}

/** The analysis analyze_experiment returns (macro + micro metrics and a one-paragraph conclusion). */
export function analyse(exp: Experiment, includeInnovation: boolean) {
  const [first, last] = endpoints(exp);
  const households = householdSummary(exp.parameters, last);
  const firms = firmSummary(exp.parameters, last);
  const gdpGrowth = round(100 * (last.gdp / first.gdp - 1), 2);
  const avgUnemployment = round(mean(exp.history.map((h) => h.unemployment_rate)), 4);
  const macro_metrics = {
    months: exp.history.length,
    final_gdp: last.gdp,
    gdp_growth_percent: gdpGrowth,
    average_unemployment_rate: avgUnemployment,
    final_unemployment_rate: last.unemployment_rate,
    average_inflation_rate: round(mean(exp.history.map((h) => h.inflation_rate)), 4),
    final_gini_coefficient: last.gini_coefficient,
    total_tax_revenue: round(
      exp.history.reduce((a, h) => a + h.tax_revenue, 0),
      2,
    ),
  };
  const micro_metrics = {
    final_average_wage: last.average_wage,
    wage_change_percent: round(100 * (last.average_wage / first.average_wage - 1), 2),
    employed_households: last.employment,
    top_quintile_wealth_share: households.wealth_by_quintile[4]?.wealth_share,
    bottom_quintile_wealth_share: households.wealth_by_quintile[0]?.wealth_share,
    ai_adopting_firms: firms.ai_adopting_firms,
  };
  const conclusion =
    `Over ${exp.history.length} months GDP changed by ${gdpGrowth}%, unemployment ended at ` +
    `${percent(last.unemployment_rate)} (average ${percent(avgUnemployment)}) and the Gini coefficient ended at ` +
    `${last.gini_coefficient}.`;
  return {
    experiment_name: exp.experiment_name,
    macro_metrics,
    micro_metrics,
    ...(includeInnovation
      ? {
          innovation_metrics: {
            enable_innovation: exp.parameters.enable_innovation,
            final_innovation_index: last.innovation_index,
            innovating_firms: firms.innovating_firms,
            rd_spending_total: firms.rd_spending_total,
          },
        }
      : {}),
    conclusion,
  };
}
