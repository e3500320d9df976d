import { searchFiles } from './code-index.js';
import { type CoderState, isDirectory, listDirectory, normalizePath, splitLines, WORKSPACE_ROOT } from './workspace.js';

/**
 * execute_command is SIMULATED: a small table of known commands produces deterministic output computed from
 * the virtual workspace (e.g. `npm test` fails until the average() bug in src/utils/math.ts is fixed).
 * Nothing is run and the real disk is never touched.
 */
export interface CommandOutput {
  exitCode: number;
  output: string;
}

const ok = (output: string): CommandOutput => ({ exitCode: 0, output });
const fail = (exitCode: number, output: string): CommandOutput => ({ exitCode, output });

/** The buggy line that makes the average test fail; fixing it (any way) makes `npm test` pass. */
function averageIsCorrect(state: CoderState): boolean {
  const math = state.files.get('src/utils/math.ts') ?? '';
  return /function average/.test(math) && !/values\.length\s*-\s*1/.test(math);
}

function runTests(state: CoderState): CommandOutput {
  const good = averageIsCorrect(state);
  const header = '> invoice-calc@1.2.0 test\n> vitest run\n\n RUN  v4.1.12 /workspace\n';
  const formatLine = ' ✓ tests/format.test.ts (1 test) 3ms';
  if (good) {
    return ok(
      `${header}\n${formatLine}\n ✓ tests/math.test.ts (3 tests) 4ms\n\n Test Files  2 passed (2)\n      Tests  4 passed (4)\n`,
    );
  }
  return fail(
    1,
    `${header}\n${formatLine}\n ❯ tests/math.test.ts (3 tests | 1 failed) 6ms\n   ✓ add sums two numbers\n` +
      '   × average returns the arithmetic mean\n     → expected 150 to be 100 // Object.is equality\n' +
      '   ✓ clamp keeps values in range\n\n' +
      ' FAIL  tests/math.test.ts > math > average returns the arithmetic mean\n' +
      'AssertionError: expected 150 to be 100 // Object.is equality\n' +
      ' ❯ tests/math.test.ts:10:38\n\n Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 3 passed (4)\n',
  );
}

function gitStatus(state: CoderState): CommandOutput {
  const modified = [...state.files.keys()].filter(
    (f) => state.committed.has(f) && state.committed.get(f) !== state.files.get(f),
  );
  const untracked = [...state.files.keys()].filter((f) => !state.committed.has(f));
  if (modified.length === 0 && untracked.length === 0) {
    return ok('On branch main\nnothing to commit, working tree clean\n');
  }
  let out = 'On branch main\n';
  if (modified.length > 0) {
    out += `Changes not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n${modified
      .sort()
      .map((f) => `\tmodified:   ${f}`)
      .join('\n')}\n\n`;
  }
  if (untracked.length > 0) {
    out += `Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n${untracked
      .sort()
      .map((f) => `\t${f}`)
      .join('\n')}\n\n`;
  }
  return ok(`${out}no changes added to commit (use "git add" and/or "git commit -a")\n`);
}

/** A minimal `git diff`: removed and added lines per modified file (not a real LCS diff). */
function gitDiff(state: CoderState): CommandOutput {
  const parts: string[] = [];
  for (const [f, before] of [...state.committed].sort()) {
    const after = state.files.get(f);
    if (after === undefined || after === before) continue;
    const a = splitLines(before);
    const b = splitLines(after);
    const removed = a.filter((l) => !b.includes(l)).map((l) => `-${l}`);
    const added = b.filter((l) => !a.includes(l)).map((l) => `+${l}`);
    parts.push(`diff --git a/${f} b/${f}\n--- a/${f}\n+++ b/${f}\n${[...removed, ...added].join('\n')}`);
  }
  return ok(parts.length > 0 ? `${parts.join('\n')}\n` : '');
}

function runOne(state: CoderState, command: string, cwd: string): CommandOutput & { cwd?: string } {
  const argv = command.trim().split(/\s+/);
  const [bin = '', ...args] = argv;
  const rest = command.trim().slice(bin.length).trim();
  const pathArg = args.filter((a) => !a.startsWith('-'));
  switch (bin) {
    case 'cd': {
      const target = normalizePath(pathArg[0] ?? '.', cwd);
      if (!isDirectory(state, target)) return fail(1, `bash: cd: ${pathArg[0]}: No such file or directory\n`);
      return { ...ok(''), cwd: target };
    }
    case 'pwd':
      return ok(`${WORKSPACE_ROOT}${cwd ? `/${cwd}` : ''}\n`);
    case 'echo':
      return ok(`${rest.replace(/^["']|["']$/g, '')}\n`);
    case 'ls': {
      const dir = normalizePath(pathArg[0] ?? '.', cwd);
      if (state.files.has(dir)) return ok(`${pathArg[0]}\n`);
      if (!isDirectory(state, dir)) return fail(2, `ls: cannot access '${pathArg[0]}': No such file or directory\n`);
      const showHidden = args.some((a) => /^-\w*a/.test(a));
      const recursive = args.some((a) => /^-\w*R/.test(a));
      const prefix = dir === '' ? '' : `${dir}/`;
      const names = listDirectory(state, dir, recursive)
        .map((e) => e.slice(prefix.length))
        .filter((n) => showHidden || !n.split('/').some((s) => s.startsWith('.')));
      return ok(`${names.join('\n')}\n`);
    }
    case 'cat': {
      const outputs = pathArg.map((p) => state.files.get(normalizePath(p, cwd)));
      const missing = pathArg.find((_, i) => outputs[i] === undefined);
      if (missing !== undefined) return fail(1, `cat: ${missing}: No such file or directory\n`);
      return ok(outputs.join(''));
    }
    case 'grep': {
      const [pattern, target] = pathArg;
      if (!pattern) return fail(2, 'Usage: grep [OPTION]... PATTERNS [FILE]...\n');
      const found = searchFiles(
        state,
        normalizePath(target ?? '.', cwd),
        pattern.replace(/^["']|["']$/g, ''),
        undefined,
      );
      const lines = found.split('\n').filter((l) => / \| /.test(l));
      return lines.length > 0 ? ok(`${lines.join('\n')}\n`) : fail(1, '');
    }
    case 'node':
      if (args[0] === '--version' || args[0] === '-v') return ok('v20.20.2\n');
      return fail(1, `node: simulated terminal only supports 'node --version'\n`);
    case 'npm':
    case 'npx':
      return runNpm(state, bin, args);
    case 'git':
      switch (args[0]) {
        case 'status':
          return gitStatus(state);
        case 'diff':
          return gitDiff(state);
        case 'branch':
          return ok('* main\n');
        case 'log':
          return ok(
            'a1b2c3d (HEAD -> main) Add UserService\n9f8e7d6 Add average and clamp helpers\n1a2b3c4 Initial commit\n',
          );
        default:
          return fail(1, `git: '${args[0] ?? ''}' is not a git command. See 'git --help'.\n`);
      }
    default:
      return fail(127, `bash: ${bin}: command not found\n`);
  }
}

function runNpm(state: CoderState, bin: string, args: string[]): CommandOutput {
  const sub = args.join(' ');
  if (bin === 'npm' && (sub === '--version' || sub === '-v')) return ok('11.19.1\n');
  if (bin === 'npm' && (args[0] === 'install' || args[0] === 'i' || args[0] === 'ci')) {
    return ok('\nup to date, audited 42 packages in 1s\n\nfound 0 vulnerabilities\n');
  }
  if (sub === 'test' || sub === 'run test' || sub === 't' || /^vitest( run)?\b/.test(sub)) return runTests(state);
  if (sub === 'run build' || /^tsc\b/.test(sub)) {
    return ok(bin === 'npm' ? '\n> invoice-calc@1.2.0 build\n> tsc -p tsconfig.json\n\n' : '');
  }
  if (sub === 'start' || sub === 'run start') {
    const avg = averageIsCorrect(state) ? '100.00' : '150.00';
    return ok(`\n> invoice-calc@1.2.0 start\n> node dist/index.js\n\nTotal: 300.00 EUR\nAverage: ${avg} EUR\n`);
  }
  if (bin === 'npm' && args[0] === 'run') {
    return fail(
      1,
      `npm error Missing script: "${args[1] ?? ''}"\n\nnpm error To see a list of scripts, run:\nnpm error   npm run\n`,
    );
  }
  return fail(1, `npm error could not determine executable to run\n`);
}

/** Runs a command line (`a && b` chains stop at the first failure) in a workspace-relative cwd. */
export function executeCommand(state: CoderState, command: string, cwd: string): CommandOutput {
  let dir = cwd;
  let output = '';
  let exitCode = 0;
  for (const part of command.split('&&')) {
    const r = runOne(state, part, dir);
    output += r.output;
    exitCode = r.exitCode;
    if (r.cwd !== undefined) dir = r.cwd;
    if (exitCode !== 0) break;
  }
  return { exitCode, output };
}
