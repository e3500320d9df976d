import { type MockTool, ToolFailure } from '../tool-kit.js';
import { executeCommand } from './commands.js';
import { type CoderState, normalizePath, type Todo, WORKSPACE_ROOT } from './workspace.js';

type Tool = MockTool<CoderState>;

const strict = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** Resources the simulated MCP hub serves to access_mcp_resource. */
const MCP_RESOURCES: Record<string, Record<string, string>> = {
  'project-docs': {
    'docs://conventions':
      '# Coding conventions\n- 2-space indentation, single quotes\n- Every exported function has a unit test in tests/\n- Money values are formatted with formatCurrency()',
    'docs://changelog': '# Changelog\n## 1.2.0\n- Added average() and clamp()\n## 1.1.0\n- Added UserService',
  },
};

const TODO_LINE = /^\s*(?:[-*]\s*)?\[( |x|X|-)\]\s+(.+)$/;

/** Interaction tools of the coding agent in case study 004: terminal, questions, completion, todos, MCP, images. */
export const agentTools: Tool[] = [
  {
    name: 'execute_command',
    description:
      'Request to execute a CLI command on the system. Use this when you need to perform system operations or run ' +
      "specific commands to accomplish any step in the user's task. Commands run in the workspace directory " +
      `(${WORKSPACE_ROOT}) unless cwd is given.\n\nParameters:\n- command: (required) The CLI command to execute.\n` +
      '- cwd: (optional) The working directory to execute the command in\n\nExample: Executing npm run dev\n' +
      '{ "command": "npm run dev", "cwd": null }',
    inputSchema: strict(
      {
        command: { type: 'string', description: 'Shell command to execute' },
        cwd: { type: ['string', 'null'], description: 'Optional working directory' },
      },
      ['command'],
    ),
    handler: (args, state) => {
      const cwd = typeof args.cwd === 'string' ? normalizePath(args.cwd) : '';
      const { exitCode, output } = executeCommand(state, String(args.command), cwd);
      const where = `${WORKSPACE_ROOT}${cwd ? `/${cwd}` : ''}`;
      const status =
        exitCode === 0 ? '' : ' Command execution was not successful, inspect the cause and adjust as needed.\n';
      return `Command executed in terminal within working directory '${where}'.${status ? status : ' '}Exit code: ${exitCode}\nOutput:\n${output}`;
    },
  },
  {
    name: 'ask_followup_question',
    description:
      'Ask the user a question to gather information needed to complete the task. Use it when you face ambiguity. ' +
      'Provide 2-4 suggested answers in follow_up, ordered by priority; each must be a complete, actionable answer.',
    inputSchema: strict(
      {
        question: { type: 'string', description: 'Clear, specific question addressing the information needed' },
        follow_up: {
          type: 'array',
          minItems: 1,
          maxItems: 4,
          description: 'Suggested answers the user can pick',
          items: strict(
            {
              text: { type: 'string', description: 'Suggested answer the user can pick' },
              mode: { type: ['string', 'null'], description: 'Optional mode slug to switch to if this is chosen' },
            },
            ['text'],
          ),
        },
      },
      ['question', 'follow_up'],
    ),
    handler: (args, state) => {
      state.questions.push(String(args.question));
      const choices = args.follow_up as { text: string }[];
      // The simulated user always picks the first suggestion (deterministic).
      return `<answer>\n${choices[0]?.text ?? ''}\n</answer>`;
    },
  },
  {
    name: 'attempt_completion',
    description:
      'Once the task is complete, present the final result to the user. Only use it after confirming earlier tool ' +
      'uses succeeded. The result should be final and not end with questions or offers of further help.',
    inputSchema: strict({ result: { type: 'string', description: 'The result of the task' } }, ['result']),
    handler: (args, state) => {
      state.completed = String(args.result);
      return 'The user has seen the result and accepted it. Task complete.';
    },
  },
  {
    name: 'update_todo_list',
    description:
      'Replace the whole TODO list with an updated checklist. One item per line: "[ ]" pending, "[-]" in progress, ' +
      '"[x]" completed. Example:\n[x] Analyze requirements\n[-] Implement core logic\n[ ] Write tests',
    inputSchema: strict({ todos: { type: 'string', description: 'Full markdown checklist' } }, ['todos']),
    handler: (args, state) => {
      const lines = String(args.todos)
        .split('\n')
        .filter((l) => l.trim() !== '');
      const todos: Todo[] = lines.map((l) => {
        const m = TODO_LINE.exec(l);
        if (!m?.[2]) {
          throw new ToolFailure(
            `update_todo_list: cannot parse line '${l.trim()}'. Each line must be "[ ] task", "[-] task" or "[x] task".`,
          );
        }
        const mark = m[1]?.toLowerCase();
        return { text: m[2].trim(), status: mark === 'x' ? 'completed' : mark === '-' ? 'in_progress' : 'pending' };
      });
      if (todos.length === 0)
        throw new ToolFailure('update_todo_list: the list is empty; give at least one "[ ] task" line.');
      state.todos = todos;
      const n = (s: Todo['status']) => todos.filter((t) => t.status === s).length;
      return `Todo list updated: ${todos.length} items (${n('completed')} completed, ${n('in_progress')} in progress, ${n('pending')} pending).`;
    },
  },
  {
    name: 'access_mcp_resource',
    description:
      'Request to access a resource provided by a connected MCP server (files, API responses, documentation).',
    inputSchema: strict(
      {
        server_name: { type: 'string', description: 'Name of the MCP server providing the resource' },
        uri: { type: 'string', description: 'URI identifying the resource' },
      },
      ['server_name', 'uri'],
    ),
    annotations: { readOnlyHint: true },
    handler: (args) => {
      const server = MCP_RESOURCES[String(args.server_name)];
      if (!server) {
        throw new ToolFailure(
          `Unknown MCP server '${String(args.server_name)}'. Connected servers: ${Object.keys(MCP_RESOURCES).join(', ')}`,
        );
      }
      const text = server[String(args.uri)];
      if (text === undefined) {
        throw new ToolFailure(
          `Resource '${String(args.uri)}' not found on ${String(args.server_name)}. Available: ${Object.keys(server).join(', ')}`,
        );
      }
      return text;
    },
  },
  {
    name: 'generate_image',
    description: 'Generate an image from a text prompt and save it in the workspace (png, jpg or webp).',
    inputSchema: strict(
      {
        prompt: { type: 'string', description: 'Description of the image to generate' },
        path: { type: 'string', description: 'Where to save the image, e.g. "assets/logo.png"' },
      },
      ['prompt', 'path'],
    ),
    handler: (args, state) => {
      const p = normalizePath(String(args.path));
      if (!/\.(png|jpe?g|webp)$/i.test(p))
        throw new ToolFailure(`generate_image: path must end in .png, .jpg or .webp (got '${p}').`);
      state.files.set(p, `[simulated image: ${String(args.prompt)}]\n`);
      return `Image generated and saved to ${p}.`;
    },
  },
];
