import type { BuiltinServer } from '../../../src/contracts/mock-server.js';
import { createMockServer, type MockTool } from '../tool-kit.js';
import { coderStateView } from './state-view.js';
import { agentTools } from './tools-agent.js';
import { fileTools } from './tools-files.js';
import { type CoderState, createCoderState } from './workspace.js';

/**
 * The coding agent's tools from case study 004: the ten core tools (execute_command, read_file, write_to_file,
 * apply_diff, search_files, list_files, list_code_definition_names, ask_followup_question, attempt_completion,
 * update_todo_list) plus the four the write-up names in its filtering rules (codebase_search, generate_image,
 * access_mcp_resource, and search_and_replace whose alias is "edit").
 */
export const coderTools: MockTool<CoderState>[] = [...fileTools, ...agentTools];

export const coderServer: BuiltinServer = {
  name: 'coder',
  description: 'Coding-agent tools (case study 004) over a virtual TypeScript workspace; execute_command is simulated.',
  toolCount: coderTools.length,
  create: () =>
    createMockServer({
      name: 'coder',
      version: '1.0.0',
      instructions:
        'Tools of a coding agent working in /workspace, a small TypeScript project (invoice-calc). Paths are relative to /workspace.',
      tools: coderTools,
      createState: createCoderState,
      stateView: coderStateView,
    }),
};
