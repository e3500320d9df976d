import type { CoderState } from './workspace.js';

/**
 * The coder server's state view (`expect.state`): every workspace file's content by its workspace-relative path
 * (`files["src/math.ts"]`), the todo list, and the completion message once attempt_completion was called. Read-only.
 */
export function coderStateView(state: CoderState): unknown {
  return {
    files: Object.fromEntries([...state.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    todos: state.todos.map((t) => ({ ...t })),
    completed: state.completed ?? null,
  };
}
