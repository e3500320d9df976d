import { ToolFailure } from '../tool-kit.js';

/** The in-memory workspace the coder tools work on. Nothing here touches the real disk. */
export const WORKSPACE_ROOT = '/workspace';

export interface Todo {
  text: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface CoderState {
  /** Workspace-relative path (no leading slash) → file content. */
  files: Map<string, string>;
  /** Content at "HEAD" (for git status / git diff). */
  committed: Map<string, string>;
  todos: Todo[];
  completed: string | undefined;
  questions: string[];
}

const MATH_TS = `/** Small numeric helpers used by the invoice calculator. */
export function add(a: number, b: number): number {
  return a + b;
}

export function sum(values: number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

export function average(values: number[]): number {
  if (values.length === 0) return 0;
  return sum(values) / (values.length - 1);
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
`;

const FORMAT_TS = `export const DEFAULT_CURRENCY = 'EUR';

export function formatCurrency(amount: number, currency: string = DEFAULT_CURRENCY): string {
  return \`\${amount.toFixed(2)} \${currency}\`;
}
`;

const USER_SERVICE_TS = `export interface User {
  id: number;
  name: string;
  email: string;
}

export class UserService {
  private readonly users = new Map<number, User>();

  addUser(user: User): void {
    this.users.set(user.id, user);
  }

  findByEmail(email: string): User | undefined {
    return [...this.users.values()].find((u) => u.email === email);
  }

  count(): number {
    return this.users.size;
  }
}
`;

const INDEX_TS = `import { formatCurrency } from './utils/format.js';
import { average, sum } from './utils/math.js';

// TODO: read invoice amounts from a CSV file instead of this constant
const AMOUNTS = [120, 80, 100];

export function main(): void {
  console.log(\`Total: \${formatCurrency(sum(AMOUNTS))}\`);
  console.log(\`Average: \${formatCurrency(average(AMOUNTS))}\`);
}

main();
`;

const MATH_TEST_TS = `import { describe, expect, it } from 'vitest';
import { add, average, clamp } from '../src/utils/math.js';

describe('math', () => {
  it('add sums two numbers', () => {
    expect(add(2, 3)).toBe(5);
  });

  it('average returns the arithmetic mean', () => {
    expect(average([120, 80, 100])).toBe(100);
  });

  it('clamp keeps values in range', () => {
    expect(clamp(15, 0, 10)).toBe(10);
  });
});
`;

const FORMAT_TEST_TS = `import { expect, it } from 'vitest';
import { formatCurrency } from '../src/utils/format.js';

it('formatCurrency formats euros', () => {
  expect(formatCurrency(12.5)).toBe('12.50 EUR');
});
`;

const PACKAGE_JSON = `{
  "name": "invoice-calc",
  "version": "1.2.0",
  "type": "module",
  "scripts": {
    "build": "tsc -p tsconfig.json",
    "start": "node dist/index.js",
    "test": "vitest run"
  },
  "devDependencies": {
    "typescript": "^5.9.3",
    "vitest": "^4.1.12"
  }
}
`;

const README_MD = `# invoice-calc

Computes totals and averages of invoice amounts.

## Usage

\`\`\`bash
npm install
npm run build
npm start
\`\`\`

Run the tests with \`npm test\`.
`;

const TSCONFIG_JSON = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "strict": true,
    "outDir": "dist"
  },
  "include": ["src"]
}
`;

export const INITIAL_FILES: Record<string, string> = {
  '.gitignore': 'node_modules/\ndist/\n',
  'README.md': README_MD,
  'package.json': PACKAGE_JSON,
  'tsconfig.json': TSCONFIG_JSON,
  'src/index.ts': INDEX_TS,
  'src/utils/math.ts': MATH_TS,
  'src/utils/format.ts': FORMAT_TS,
  'src/services/user-service.ts': USER_SERVICE_TS,
  'tests/math.test.ts': MATH_TEST_TS,
  'tests/format.test.ts': FORMAT_TEST_TS,
};

export function createCoderState(): CoderState {
  return {
    files: new Map(Object.entries(INITIAL_FILES)),
    committed: new Map(Object.entries(INITIAL_FILES)),
    todos: [],
    completed: undefined,
    questions: [],
  };
}

/**
 * Normalises a path given by the model ("src/a.ts", "./src/a.ts", "/workspace/src/a.ts", "src/") to a
 * workspace-relative path ('' for the root). Paths escaping the workspace are a tool error.
 */
export function normalizePath(input: string, cwd = ''): string {
  let p = input.trim().replace(/\\/g, '/');
  if (p === WORKSPACE_ROOT || p.startsWith(`${WORKSPACE_ROOT}/`)) p = p.slice(WORKSPACE_ROOT.length);
  else if (p.startsWith('/')) throw new ToolFailure(`Path '${input}' is outside the workspace ${WORKSPACE_ROOT}.`);
  else if (cwd) p = `${cwd}/${p}`;
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) throw new ToolFailure(`Path '${input}' is outside the workspace ${WORKSPACE_ROOT}.`);
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

export function readFileOrFail(state: CoderState, path: string): string {
  const content = state.files.get(path);
  if (content === undefined) {
    const hint = isDirectory(state, path) ? ' It is a directory; use list_files.' : ' Use list_files to see the files.';
    throw new ToolFailure(`File not found: ${path || '.'}.${hint}`);
  }
  return content;
}

export function isDirectory(state: CoderState, dir: string): boolean {
  if (dir === '') return true;
  return [...state.files.keys()].some((f) => f.startsWith(`${dir}/`));
}

/** Files under `dir` (all depths), sorted. */
export function filesUnder(state: CoderState, dir: string): string[] {
  return [...state.files.keys()].filter((f) => dir === '' || f.startsWith(`${dir}/`)).sort();
}

/** Entries of a directory as `ls` would show them: files and `subdir/`, sorted, names relative to the workspace. */
export function listDirectory(state: CoderState, dir: string, recursive: boolean): string[] {
  if (!isDirectory(state, dir)) {
    throw new ToolFailure(`Directory not found: ${dir}. Use list_files on '.' to see the workspace.`);
  }
  const prefix = dir === '' ? '' : `${dir}/`;
  const entries = new Set<string>();
  for (const file of filesUnder(state, dir)) {
    const rest = file.slice(prefix.length).split('/');
    for (let depth = 1; depth <= rest.length; depth++) {
      const isFile = depth === rest.length;
      if (!recursive && depth > 1) break;
      entries.add(prefix + rest.slice(0, depth).join('/') + (isFile ? '' : '/'));
    }
  }
  return [...entries].sort();
}

export function lineCount(content: string): number {
  if (content === '') return 0;
  return content.endsWith('\n') ? content.split('\n').length - 1 : content.split('\n').length;
}

export function splitLines(content: string): string[] {
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines;
}
