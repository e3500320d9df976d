import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'providers/**/*.test.ts',
      'renderers/**/*.test.ts',
      'mock-servers/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of the suite's time is spent waiting on child processes (the CLI, MCP servers, the wire mock), so more
    // files run at once than there are cores; vitest's default on a 2-core machine is one file at a time.
    maxWorkers: 4,
    // Builds the CLI bundle the tests spawn from the current sources; gives the run its own TMPDIR, empty at the end.
    globalSetup: ['tests/setup/cli-bundle.ts', 'tests/setup/run-tmpdir.ts'],
    // Gives each test file its own TMPDIR and fails the file if it leaves anything there.
    setupFiles: ['tests/setup/file-cpu.ts', 'tests/setup/file-tmpdir.ts'],
  },
});
