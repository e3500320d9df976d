import type { MockTool } from '../tool-kit.js';
import type { ParameterValues } from './parameters.js';
import { compactStamp, type EconomistState, tick } from './state.js';

type Tool = MockTool<EconomistState>;

interface QuestionType {
  type: string;
  keywords: [label: string, pattern: RegExp][];
  recommended: ParameterValues;
  indicators: string[];
}

/** Keyword rules (case study 003: "How will AI agents reshape the labor market?" → labor_productivity, keywords AI, labor market, reshap). */
const QUESTION_TYPES: QuestionType[] = [
  {
    type: 'labor_productivity',
    keywords: [
      ['AI', /\bAI\b|人工智能|artificial intelligence/i],
      ['labor market', /\blabou?r market|劳动力市场|就业市场/i],
      ['reshap', /\breshap|重塑/i],
      ['automation', /\bautomat|自动化/i],
      ['jobs', /\bjobs?\b|\bemployment|\bworkers?\b|就业|工作岗位/i],
      ['productivity', /\bproductivity|生产率|生产力/i],
    ],
    recommended: {
      ai_adoption_rate: 0.5,
      labor_productivity: 1.5,
      enable_innovation: true,
      innovation_probability: 0.15,
    },
    indicators: ['unemployment_rate', 'average_wage', 'gdp'],
  },
  {
    type: 'tax_policy',
    keywords: [
      ['tax', /\btax|税/i],
      ['fiscal', /\bfiscal|财政/i],
    ],
    recommended: { income_tax_rate: 0.55, corporate_tax_rate: 0.3 },
    indicators: ['tax_revenue', 'gini_coefficient', 'gdp'],
  },
  {
    type: 'innovation',
    keywords: [
      ['innovation', /\binnovat|创新/i],
      ['R&D', /\bR&D\b|research and development|研发/i],
    ],
    recommended: { enable_innovation: true, innovation_probability: 0.15, rd_investment_share: 0.05 },
    indicators: ['innovation_index', 'gdp', 'average_wage'],
  },
  {
    type: 'inequality',
    keywords: [
      ['inequality', /\binequality|不平等|贫富/i],
      ['basic income', /\bbasic income|\bUBI\b|基本收入/i],
      ['redistribution', /\bredistribut|再分配/i],
    ],
    recommended: { universal_basic_income: 500, income_tax_rate: 0.5 },
    indicators: ['gini_coefficient', 'consumption', 'tax_revenue'],
  },
  {
    type: 'monetary_policy',
    keywords: [
      ['interest rate', /\binterest rates?|利率/i],
      ['inflation', /\binflation|通胀|通货膨胀/i],
      ['money supply', /\bmoney supply|货币供应/i],
    ],
    recommended: { interest_rate: 0.05, money_supply_growth: 0.01 },
    indicators: ['inflation_rate', 'unemployment_rate', 'gdp'],
  },
];

/** Picks the question type with the most keyword hits (first listed wins ties); 'general' when nothing matches. */
export function classifyQuestion(question: string) {
  let best: { rule: QuestionType | undefined; hits: string[] } = { rule: undefined, hits: [] };
  for (const rule of QUESTION_TYPES) {
    const hits = rule.keywords.filter(([, re]) => re.test(question)).map(([label]) => label);
    if (hits.length > best.hits.length) best = { rule, hits };
  }
  return best;
}

const question = { type: 'string', description: 'The research question in natural language (any language)' };

/** Group 7 of case study 003: automated experiments (3 tools). */
export const automationTools: Tool[] = [
  {
    name: 'analyze_question',
    description:
      'Analyse a research question: classify it (question_type), extract keywords and recommend parameters and ' +
      'indicators for an experiment that answers it. Step 1 of the experiment workflow.',
    inputSchema: { type: 'object', properties: { question }, required: ['question'] },
    annotations: { readOnlyHint: true },
    handler: (args) => {
      const { rule, hits } = classifyQuestion(String(args.question));
      return {
        question: args.question,
        question_type: rule?.type ?? 'general',
        identified_keywords: hits,
        recommended_parameters: rule?.recommended ?? {},
        key_indicators: rule?.indicators ?? ['gdp', 'unemployment_rate', 'gini_coefficient'],
        next_step: 'generate_config_from_question',
      };
    },
  },
  {
    name: 'generate_config_from_question',
    description:
      'Generate an experiment configuration (config_name, description, parameters) for a research question. ' +
      'It does not change parameters: apply them with batch_set_parameters and save with save_current_config_to_yaml.',
    inputSchema: {
      type: 'object',
      properties: {
        question,
        question_type: {
          type: 'string',
          description: 'question_type from analyze_question (detected again when omitted)',
        },
      },
      required: ['question'],
    },
    handler: (args, state) => {
      const { rule } = classifyQuestion(String(args.question));
      const type = typeof args.question_type === 'string' ? args.question_type : (rule?.type ?? 'general');
      const known = QUESTION_TYPES.find((q) => q.type === type);
      const stamp = compactStamp(tick(state));
      return {
        config_name: `${type}_policy_${stamp}`,
        description: `Experiment for: ${String(args.question)}`,
        question_type: type,
        parameters: known?.recommended ?? rule?.recommended ?? {},
        simulation_months: state.parameters.simulation_months,
      };
    },
  },
  {
    name: 'get_experiment_workflow',
    description:
      'Get the recommended step-by-step workflow (which tool to call in which order) for answering a research question.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    handler: () => ({
      steps: [
        { step: 1, tool: 'analyze_question', purpose: 'classify the question, get recommended_parameters' },
        { step: 2, tool: 'generate_config_from_question', purpose: 'get config_name and description' },
        { step: 3, tool: 'batch_set_parameters', purpose: 'apply recommended_parameters' },
        { step: 4, tool: 'save_current_config_to_yaml', purpose: 'save the config under config_name' },
        { step: 5, tool: 'load_yaml_config', purpose: 'load the saved config' },
        { step: 6, tool: 'start_simulation', purpose: 'start the run' },
        { step: 7, tool: 'get_simulation_status', purpose: 'poll until running is false' },
        { step: 8, tool: 'capture_experiment', purpose: 'capture the run as a named experiment' },
        { step: 9, tool: 'analyze_experiment', purpose: 'get macro_metrics and micro_metrics' },
        { step: 10, tool: '(none)', purpose: 'answer the question from the analysis' },
      ],
    }),
  },
];
