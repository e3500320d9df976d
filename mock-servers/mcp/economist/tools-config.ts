import { stringify } from 'yaml';
import { type MockTool, ToolFailure } from '../tool-kit.js';
import { validateAssignments } from './parameters.js';
import type { EconomistState } from './state.js';

type Tool = MockTool<EconomistState>;

const configName = {
  type: 'string',
  description: "Config name without extension, e.g. 'labor_productivity_policy_20251122_101542'",
  pattern: '^[A-Za-z0-9_.-]+$',
};

/** Group 2 of case study 003: YAML configuration files (3 tools). The files live in memory. */
export const configTools: Tool[] = [
  {
    name: 'list_yaml_configs',
    description: 'List the YAML experiment configurations in the configs/ directory.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    handler: (_args, state) => ({
      configs: [...state.yamlConfigs].map(([name, c]) => ({
        config_name: name,
        path: c.path,
        description: c.description,
      })),
    }),
  },
  {
    name: 'load_yaml_config',
    description: 'Load a YAML configuration: its parameters replace the current parameters.',
    inputSchema: { type: 'object', properties: { config_name: configName }, required: ['config_name'] },
    handler: (args, state) => {
      const name = String(args.config_name).replace(/\.ya?ml$/, '');
      const config = state.yamlConfigs.get(name);
      if (!config) {
        throw new ToolFailure(
          `Unknown config '${name}'. Available configs: ${[...state.yamlConfigs.keys()].join(', ')}`,
        );
      }
      state.parameters = { ...validateAssignments({ ...config.parameters }) };
      return {
        success: true,
        config_name: name,
        path: config.path,
        parameters_loaded: Object.keys(config.parameters).length,
      };
    },
  },
  {
    name: 'save_current_config_to_yaml',
    description: 'Save the current parameters as configs/<config_name>.yaml so the experiment can be reproduced.',
    inputSchema: {
      type: 'object',
      properties: {
        config_name: configName,
        description: { type: 'string', description: 'One-line description written into the file' },
      },
      required: ['config_name'],
    },
    handler: (args, state) => {
      const name = String(args.config_name).replace(/\.ya?ml$/, '');
      const path = `configs/${name}.yaml`;
      const description = String(args.description ?? '');
      state.yamlConfigs.set(name, { description, parameters: { ...state.parameters }, path });
      return {
        success: true,
        config_name: name,
        path,
        content: stringify({ name, description, parameters: state.parameters }),
      };
    },
  },
];
