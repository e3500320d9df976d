import { type MockTool, ToolFailure } from '../tool-kit.js';
import { analyse, findExperiment, percent, summarise } from './analysis.js';
import { INDICATOR_NAMES, type IndicatorName, round } from './model.js';
import type { EconomistState } from './state.js';

type Tool = MockTool<EconomistState>;

const experimentName = { type: 'string', description: "Experiment name, e.g. 'baseline_2025'" };
const indicator = { type: 'string', enum: [...INDICATOR_NAMES], description: 'Economic indicator' };

/** Group 5 of case study 003: historical experiment analysis (6 tools). */
export const historyTools: Tool[] = [
  {
    name: 'list_history_experiments',
    description: 'List finished experiments (historical runs and experiments captured in this session).',
    inputSchema: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Maximum number to return (default 20)' },
      },
    },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const all = [...state.experiments.values()].map((e) => ({
        experiment_name: e.experiment_name,
        status: e.status,
        months: e.history.length,
        created_at: e.created_at,
        description: e.description,
      }));
      return { total: all.length, experiments: all.slice(0, (args.limit as number | undefined) ?? 20) };
    },
  },
  {
    name: 'generate_experiment_report',
    description: 'Generate a readable report of an experiment: setup, key results and conclusion.',
    inputSchema: {
      type: 'object',
      properties: {
        experiment_name: experimentName,
        format: { type: 'string', enum: ['markdown', 'json'], default: 'markdown', description: 'Report format' },
      },
      required: ['experiment_name'],
    },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const exp = findExperiment(state, String(args.experiment_name));
      const a = analyse(exp, true);
      if (args.format === 'json') return { summary: summarise(exp), analysis: a };
      const changed = Object.entries(summarise(exp).changed_parameters);
      return [
        `# Experiment report: ${exp.experiment_name}`,
        '',
        `${exp.description || '(no description)'} — status ${exp.status}, ${a.macro_metrics.months} months.`,
        '',
        '## Setup',
        changed.length > 0 ? changed.map(([k, v]) => `- ${k}: ${v}`).join('\n') : '- default parameters',
        '',
        '## Results',
        `- GDP growth: ${a.macro_metrics.gdp_growth_percent}%`,
        `- Final unemployment rate: ${percent(a.macro_metrics.final_unemployment_rate)}`,
        `- Final Gini coefficient: ${a.macro_metrics.final_gini_coefficient}`,
        `- Total tax revenue: ${a.macro_metrics.total_tax_revenue}`,
        '',
        '## Conclusion',
        a.conclusion,
      ].join('\n');
    },
  },
  {
    name: 'get_experiment_summary',
    description: 'Get an experiment summary: status, changed parameters and final indicators.',
    inputSchema: { type: 'object', properties: { experiment_name: experimentName }, required: ['experiment_name'] },
    annotations: { readOnlyHint: true },
    handler: (args, state) => summarise(findExperiment(state, String(args.experiment_name))),
  },
  {
    name: 'get_experiment_timeseries',
    description: 'Get the month-by-month values of one indicator in an experiment.',
    inputSchema: {
      type: 'object',
      properties: { experiment_name: experimentName, indicator },
      required: ['experiment_name', 'indicator'],
    },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const exp = findExperiment(state, String(args.experiment_name));
      const name = args.indicator as IndicatorName;
      return {
        experiment_name: exp.experiment_name,
        indicator: name,
        values: exp.history.map((h) => ({ month: h.month, value: h[name] })),
      };
    },
  },
  {
    name: 'compare_experiments',
    description: 'Compare the final indicators of two or more experiments (differences relative to the first one).',
    inputSchema: {
      type: 'object',
      properties: {
        experiment_names: {
          type: 'array',
          items: { type: 'string' },
          minItems: 2,
          maxItems: 5,
          description: 'Experiments to compare; the first is the reference',
        },
        indicators: { type: 'array', items: indicator, description: 'Indicators to compare (default: all)' },
      },
      required: ['experiment_names'],
    },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const exps = (args.experiment_names as string[]).map((n) => findExperiment(state, n));
      const names =
        (args.indicators as IndicatorName[] | undefined) ?? INDICATOR_NAMES.filter((n) => n !== 'consumption');
      const finals = exps.map((e) => summarise(e).final_indicators);
      const ref = finals[0];
      if (!ref) throw new ToolFailure('compare_experiments needs at least two experiment names.');
      return {
        reference: exps[0]?.experiment_name,
        comparison: Object.fromEntries(
          names.map((n) => [
            n,
            Object.fromEntries(
              exps.map((e, i) => {
                const v = finals[i]?.[n] ?? 0;
                return [e.experiment_name, i === 0 ? v : { value: v, difference: round(v - ref[n], 4) }];
              }),
            ),
          ]),
        ),
      };
    },
  },
  {
    name: 'get_monthly_statistics',
    description: 'Get all indicators of one month of an experiment and their change from the previous month.',
    inputSchema: {
      type: 'object',
      properties: {
        experiment_name: experimentName,
        month: { type: 'integer', minimum: 1, description: 'Simulated month' },
      },
      required: ['experiment_name', 'month'],
    },
    annotations: { readOnlyHint: true },
    handler: (args, state) => {
      const exp = findExperiment(state, String(args.experiment_name));
      const month = Number(args.month);
      const row = exp.history.find((h) => h.month === month);
      if (!row)
        throw new ToolFailure(
          `Month ${month} is not in '${exp.experiment_name}'; valid months are 1 to ${exp.history.length}.`,
        );
      const prev = exp.history.find((h) => h.month === month - 1);
      const change = prev ? Object.fromEntries(INDICATOR_NAMES.map((n) => [n, round(row[n] - prev[n], 4)])) : null;
      return { experiment_name: exp.experiment_name, month, indicators: row, change_from_previous_month: change };
    },
  },
];
