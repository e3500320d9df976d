import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory } from '../../../tests/helpers/mock-server-client.js';
import { economistServer } from './index.js';

let open: Connected[] = [];
async function connect(): Promise<Connected> {
  const c = await connectInMemory(economistServer.create());
  open.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

const GROUPS: Record<string, string[]> = {
  parameters: [
    'get_all_parameters',
    'get_parameter',
    'set_parameter',
    'batch_set_parameters',
    'validate_parameters',
    'reset_parameters',
    'save_preset',
    'load_preset',
    'list_presets',
    'get_parameter_ranges',
  ],
  yaml: ['list_yaml_configs', 'load_yaml_config', 'save_current_config_to_yaml'],
  intervention: [
    'pause_simulation',
    'resume_simulation',
    'inject_intervention',
    'list_pending_interventions',
    'cancel_intervention',
  ],
  simulation: [
    'start_simulation',
    'get_simulation_status',
    'stop_simulation',
    'get_economic_indicators',
    'get_all_economic_indicators',
    'get_household_summary',
    'get_firm_summary',
  ],
  history: [
    'list_history_experiments',
    'generate_experiment_report',
    'get_experiment_summary',
    'get_experiment_timeseries',
    'compare_experiments',
    'get_monthly_statistics',
  ],
  analysis: [
    'capture_experiment',
    'update_experiment_status',
    'analyze_experiment',
    'list_experiments',
    'get_analysis_result',
  ],
  automation: ['analyze_question', 'generate_config_from_question', 'get_experiment_workflow'],
};

describe('economist catalog', () => {
  it('publishes the 39 tools of case study 003 in group order, each with a schema ajv compiles', async () => {
    const c = await connect();
    const { tools } = await c.client.listTools();
    expect(tools).toHaveLength(39);
    expect(economistServer.toolCount).toBe(39);
    expect(tools.map((t) => t.name)).toEqual(Object.values(GROUPS).flat());
    const ajv = new Ajv({ strict: true, strictTypes: false });
    for (const t of tools) {
      expect(t.description, t.name).toBeTruthy();
      expect(() => ajv.compile(t.inputSchema), t.name).not.toThrow();
      for (const [name, prop] of Object.entries(t.inputSchema.properties ?? {})) {
        expect((prop as { description?: string }).description, `${t.name}.${name}`).toBeTruthy();
      }
    }
  });
});

describe('economist state', () => {
  it('set_parameter then get_parameter sees the new value; bad names and ranges are tool errors naming what is valid', async () => {
    const c = await connect();
    expect((await c.json('get_parameter', { parameter_name: 'income_tax_rate' })).value).toBe(0.45);
    await c.json('set_parameter', { parameter_name: 'income_tax_rate', value: 0.3 });
    expect((await c.json('get_parameter', { parameter_name: 'income_tax_rate' })).value).toBe(0.3);

    const unknown = await c.call('set_parameter', { parameter_name: 'tax_rate', value: 0.3 });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("Unknown parameter 'tax_rate'");
    expect(unknown.text).toContain('income_tax_rate');
    const range = await c.call('set_parameter', { parameter_name: 'income_tax_rate', value: 1.5 });
    expect(range).toEqual({ isError: true, text: 'income_tax_rate = 1.5 is out of range; valid range is [0, 0.9]' });
    const missing = await c.call('set_parameter', { value: 0.3 });
    expect(missing.isError).toBe(true);
  });

  it('batch_set_parameters is all-or-nothing; presets save and load; reset restores defaults', async () => {
    const c = await connect();
    const bad = await c.call('batch_set_parameters', { parameters: { ai_adoption_rate: 0.5, num_firms: 0 } });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('num_firms = 0 is out of range');
    expect((await c.json('get_parameter', { parameter_name: 'ai_adoption_rate' })).value).toBe(0.1);

    await c.json('batch_set_parameters', { parameters: { ai_adoption_rate: 0.5, enable_innovation: true } });
    await c.json('save_preset', { preset_name: 'mine' });
    await c.json('reset_parameters', {});
    expect((await c.json('get_parameter', { parameter_name: 'ai_adoption_rate' })).value).toBe(0.1);
    await c.json('load_preset', { preset_name: 'mine' });
    expect((await c.json('get_parameter', { parameter_name: 'enable_innovation' })).value).toBe(true);
    const presets = await c.json<{ presets: { preset_name: string }[] }>('list_presets');
    expect(presets.presets.map((p) => p.preset_name)).toEqual(['default', 'high_innovation', 'mine']);
    const nope = await c.call('load_preset', { preset_name: 'nope' });
    expect(nope.isError).toBe(true);
    expect(nope.text).toContain('default, high_innovation, mine');
  });

  it('each create() starts from fresh state', async () => {
    const a = await connect();
    await a.json('set_parameter', { parameter_name: 'num_households', value: 500 });
    await a.json('start_simulation');
    const b = await connect();
    expect((await b.json('get_parameter', { parameter_name: 'num_households' })).value).toBe(100);
    expect((await b.json('get_simulation_status')).status).toBe('idle');
  });
});

describe('economist simulation', () => {
  it('starts, advances a fixed step per status call, completes, and refuses to stop when not running', async () => {
    const c = await connect();
    const notRunning = await c.call('stop_simulation');
    expect(notRunning.isError).toBe(true);
    expect(notRunning.text).toContain('No simulation is running (status: idle)');
    expect((await c.call('get_all_economic_indicators')).isError).toBe(true);

    await c.json('set_parameter', { parameter_name: 'simulation_months', value: 18 });
    expect((await c.json('start_simulation')).total_months).toBe(18);
    expect((await c.call('start_simulation')).isError).toBe(true);
    const months: number[] = [];
    for (let i = 0; i < 3; i++) months.push(Number((await c.json('get_simulation_status')).current_month));
    expect(months).toEqual([6, 12, 18]);
    const done = await c.json('get_simulation_status');
    expect(done).toMatchObject({ running: false, status: 'completed', progress_percent: 100 });
    const ind = await c.json('get_economic_indicators', { indicator_names: ['unemployment_rate'], month: 12 });
    expect(Object.keys(ind)).toEqual(['month', 'unemployment_rate']);
    expect((await c.call('stop_simulation')).text).toContain('status: completed');
  });

  it('higher AI adoption raises unemployment and inequality (numbers follow from the inputs)', async () => {
    const final = async (ai: number) => {
      const c = await connect();
      await c.json('set_parameter', { parameter_name: 'ai_adoption_rate', value: ai });
      await c.json('start_simulation');
      await c.json('get_simulation_status');
      await c.json('get_simulation_status');
      return c.json<{ unemployment_rate: number; gini_coefficient: number }>('get_all_economic_indicators');
    };
    const low = await final(0.1);
    const high = await final(0.8);
    expect(high.unemployment_rate).toBeGreaterThan(low.unemployment_rate);
    expect(high.gini_coefficient).toBeGreaterThan(low.gini_coefficient);
    expect(await final(0.8)).toEqual(high);
  });

  it('pause stops progress; interventions apply at their month or can be cancelled', async () => {
    const c = await connect();
    await c.json('start_simulation');
    expect((await c.json('get_simulation_status')).current_month).toBe(6);
    await c.json('pause_simulation');
    expect((await c.json('get_simulation_status')).current_month).toBe(6);
    const late = await c.call('inject_intervention', {
      parameter_name: 'income_tax_rate',
      value: 0.6,
      apply_at_month: 3,
    });
    expect(late.isError).toBe(true);
    expect(late.text).toContain('choose a month from 7 to 12');
    const iv = await c.json('inject_intervention', {
      parameter_name: 'income_tax_rate',
      value: 0.6,
      apply_at_month: 9,
    });
    await c.json('inject_intervention', { parameter_name: 'interest_rate', value: 0.05, apply_at_month: 10 });
    await c.json('cancel_intervention', { intervention_id: 'int_002' });
    expect((await c.json('list_pending_interventions')).count).toBe(1);
    await c.json('resume_simulation');
    await c.json('get_simulation_status');
    await c.json('capture_experiment', { experiment_name: 'tax_hike' });
    const series = await c.json<{ values: { month: number; value: number }[] }>('get_experiment_timeseries', {
      experiment_name: 'tax_hike',
      indicator: 'gini_coefficient',
    });
    const gini = (m: number) => series.values.find((v) => v.month === m)?.value ?? Number.NaN;
    expect(iv.intervention_id).toBe('int_001');
    expect(gini(9)).toBeLessThan(gini(8));
    expect((await c.json('get_experiment_summary', { experiment_name: 'tax_hike' })).interventions_applied).toBe(1);
  });
});

describe('economist 10-step workflow of case study 003', () => {
  it('runs analyze_question → … → analyze_experiment with results that follow from the inputs', async () => {
    const c = await connect();
    const q = 'How will AI agents reshape the labor market?';
    const a = await c.json<{ question_type: string; identified_keywords: string[]; recommended_parameters: object }>(
      'analyze_question',
      { question: q },
    );
    expect(a.question_type).toBe('labor_productivity');
    expect(a.identified_keywords).toEqual(['AI', 'labor market', 'reshap']);
    const g = await c.json<{ config_name: string; description: string }>('generate_config_from_question', {
      question: q,
    });
    expect(g.config_name).toBe('labor_productivity_policy_20251122_101542');
    expect((await c.json('batch_set_parameters', { parameters: a.recommended_parameters })).success).toBe(true);
    const saved = await c.json('save_current_config_to_yaml', {
      config_name: g.config_name,
      description: g.description,
    });
    expect(saved.path).toBe('configs/labor_productivity_policy_20251122_101542.yaml');
    expect(String(saved.content)).toContain('ai_adoption_rate: 0.5');
    await c.json('reset_parameters');
    await c.json('load_yaml_config', { config_name: g.config_name });
    expect((await c.json('get_parameter', { parameter_name: 'ai_adoption_rate' })).value).toBe(0.5);
    expect((await c.json('start_simulation')).simulation_started).toBe(true);
    expect((await c.json('get_simulation_status')).running).toBe(true);
    const early = await c.call('capture_experiment', { experiment_name: 'ai_labor' });
    expect(early.isError).toBe(true);
    expect(early.text).toContain('still running (month 6 of 12)');
    expect((await c.json('get_simulation_status')).running).toBe(false);
    expect(
      (await c.json('capture_experiment', { experiment_name: 'ai_labor', status: 'completed' })).months_captured,
    ).toBe(12);
    const r = await c.json<{ macro_metrics: Record<string, number>; conclusion: string }>('analyze_experiment', {
      experiment_name: 'ai_labor',
      include_innovation: false,
    });
    const base = await c.json<{ macro_metrics: Record<string, number> }>('analyze_experiment', {
      experiment_name: 'baseline_2025',
    });
    expect(r.macro_metrics.months).toBe(12);
    expect(r.macro_metrics.final_unemployment_rate).toBeGreaterThan(Number(base.macro_metrics.final_unemployment_rate));
    expect(r.macro_metrics.gdp_growth_percent).toBeGreaterThan(Number(base.macro_metrics.gdp_growth_percent));
    expect(r.conclusion).toContain(`${r.macro_metrics.gdp_growth_percent}%`);
    expect(await c.json('get_analysis_result', { experiment_name: 'ai_labor' })).toEqual(r);
    const listed = await c.json<{ experiments: { experiment_name: string; analysed: boolean }[] }>('list_experiments');
    expect(listed.experiments).toEqual([expect.objectContaining({ experiment_name: 'ai_labor', analysed: true })]);
  });
});
