import type { BuiltinServer } from '../../../src/contracts/mock-server.js';
import { createMockServer, type MockTool } from '../tool-kit.js';
import { createEconomistState, type EconomistState } from './state.js';
import { economistStateView } from './state-view.js';
import { analysisTools } from './tools-analysis.js';
import { automationTools } from './tools-automation.js';
import { configTools } from './tools-config.js';
import { historyTools } from './tools-history.js';
import { interventionTools } from './tools-intervention.js';
import { parameterTools } from './tools-parameters.js';
import { simulationTools } from './tools-simulation.js';

/** The 39 tools of case study 003, in its 7 groups and order (10 + 3 + 5 + 7 + 6 + 5 + 3). */
export const economistTools: MockTool<EconomistState>[] = [
  ...parameterTools,
  ...configTools,
  ...interventionTools,
  ...simulationTools,
  ...historyTools,
  ...analysisTools,
  ...automationTools,
];

export const economistServer: BuiltinServer = {
  name: 'economist',
  description:
    'ai-economist-parameter-server (case study 003): 39 tools to set simulation parameters, run a deterministic ' +
    'agent-based economy, capture and analyse experiments.',
  toolCount: economistTools.length,
  create: () =>
    createMockServer({
      name: 'ai-economist-parameter-server',
      version: '1.0.0',
      instructions:
        'Economic simulation server. To answer a research question: analyze_question → generate_config_from_question → ' +
        'batch_set_parameters → save_current_config_to_yaml → load_yaml_config → start_simulation → ' +
        'get_simulation_status (until running is false) → capture_experiment → analyze_experiment.',
      tools: economistTools,
      createState: createEconomistState,
      stateView: economistStateView,
    }),
};
