import type { ParameterValues } from './parameters.js';

/**
 * The deterministic toy economy behind the simulation tools. It is not economics: it only has to produce
 * numbers that follow from the parameters (raise ai_adoption_rate → unemployment and inequality rise,
 * raise income_tax_rate → inequality falls and tax revenue rises) so multi-step cases have checkable facts.
 */
export interface MonthlyIndicators {
  month: number;
  gdp: number;
  unemployment_rate: number;
  inflation_rate: number;
  average_wage: number;
  gini_coefficient: number;
  tax_revenue: number;
  consumption: number;
  employment: number;
  innovation_index: number;
}

export const INDICATOR_NAMES = [
  'gdp',
  'unemployment_rate',
  'inflation_rate',
  'average_wage',
  'gini_coefficient',
  'tax_revenue',
  'consumption',
  'employment',
  'innovation_index',
] as const;
export type IndicatorName = (typeof INDICATOR_NAMES)[number];

const num = (p: ParameterValues, k: string): number => {
  const v = p[k];
  return typeof v === 'number' ? v : 0;
};
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
/** Rounds to a fixed number of decimals (rates: 4, money: 2) so numbers in outputs are stable strings. */
export const round = (x: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};

/** Indicators for month `m` (1-based) under parameters `p`. Pure. */
export function indicatorsAt(p: ParameterValues, m: number): MonthlyIndicators {
  const t = Math.min(1, m / 12);
  const ai = num(p, 'ai_adoption_rate');
  const innovating = p.enable_innovation === true;
  const innovBoost = innovating
    ? 1 + num(p, 'innovation_probability') * 0.5 * t + num(p, 'rd_investment_share') * t
    : 1;
  const productivity = num(p, 'labor_productivity') * (1 + 0.4 * ai * t) * innovBoost;
  const wageFloor = Math.max(0, num(p, 'minimum_wage') / 3000 - 0.5) * 0.1;
  const unemployment = clamp(
    0.04 + 0.15 * ai * t + wageFloor + 0.2 * (num(p, 'interest_rate') - 0.03) - 0.05 * (innovBoost - 1),
    0.01,
    0.6,
  );
  const households = num(p, 'num_households');
  const employment = Math.round(households * (1 - unemployment));
  const averageWage = 3000 * productivity * (1 - 0.2 * ai * t);
  const wageBill = employment * averageWage;
  const gdp = wageBill * (1 + 0.5 * ai * t + 0.25);
  const incomeTax = wageBill * num(p, 'income_tax_rate') * 0.6;
  const transfers =
    (households - employment) * num(p, 'unemployment_benefit') + households * num(p, 'universal_basic_income');
  const consumption = num(p, 'consumption_propensity') * (wageBill - incomeTax + transfers);
  const taxRevenue = incomeTax + gdp * 0.2 * num(p, 'corporate_tax_rate') + consumption * num(p, 'vat_rate');
  const gini = clamp(
    0.32 + 0.25 * ai * t - 0.3 * (num(p, 'income_tax_rate') - 0.3) - num(p, 'universal_basic_income') / 10000,
    0.15,
    0.8,
  );
  const inflation =
    0.02 + 0.5 * (num(p, 'money_supply_growth') - 0.02) - 0.3 * (num(p, 'interest_rate') - 0.03) + 0.01 * ai * t;
  return {
    month: m,
    gdp: round(gdp, 2),
    unemployment_rate: round(unemployment, 4),
    inflation_rate: round(inflation, 4),
    average_wage: round(averageWage, 2),
    gini_coefficient: round(gini, 4),
    tax_revenue: round(taxRevenue, 2),
    consumption: round(consumption, 2),
    employment,
    innovation_index: round(100 * innovBoost, 2),
  };
}

/** Household wealth by quintile from a Lorenz curve L(p) = p^k with k = (1+G)/(1-G). */
export function householdSummary(p: ParameterValues, latest: MonthlyIndicators) {
  const households = num(p, 'num_households');
  const g = latest.gini_coefficient;
  const k = (1 + g) / (1 - g);
  const meanWealth = 10000 + latest.month * latest.average_wage * (1 - num(p, 'consumption_propensity')) * 0.5;
  const quintiles = [1, 2, 3, 4, 5].map((i) => {
    const share = (i / 5) ** k - ((i - 1) / 5) ** k;
    return { quintile: i, wealth_share: round(share, 4), average_wealth: round(meanWealth * share * 5, 2) };
  });
  return {
    month: latest.month,
    num_households: households,
    employed: latest.employment,
    unemployed: households - latest.employment,
    average_wealth: round(meanWealth, 2),
    gini_coefficient: g,
    wealth_by_quintile: quintiles,
  };
}

export function firmSummary(p: ParameterValues, latest: MonthlyIndicators) {
  const firms = num(p, 'num_firms');
  const innovating = p.enable_innovation === true;
  return {
    month: latest.month,
    num_firms: firms,
    ai_adopting_firms: Math.round(firms * num(p, 'ai_adoption_rate')),
    innovating_firms: innovating ? Math.round(firms * Math.min(1, num(p, 'innovation_probability') * latest.month)) : 0,
    average_revenue: round(latest.gdp / firms, 2),
    average_employees: round(latest.employment / firms, 2),
    rd_spending_total: round(latest.gdp * num(p, 'rd_investment_share'), 2),
  };
}
