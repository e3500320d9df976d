import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** What every test file gets, in both projects. */
const common: TestProjectInlineConfiguration['test'] = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks',
  // Gives each test file its own TMPDIR and fails the file if it leaves a folder or a process behind.
  setupFiles: ['tests/setup/file-cpu.ts', 'tests/setup/file-tmpdir.ts'],
};

export default defineConfig({
  test: {
    // Most of the suite's time is spent waiting on child processes (the CLI, MCP servers, the wire mock), so more
    // files run at once than there are cores; vitest's default on a 2-core machine is one file at a time.
    maxWorkers: 4,
    // Once per run (the projects below do not inherit it): builds the CLI bundle the tests spawn from the current
    // sources; gives the run its own TMPDIR, which must be empty at the end.
    globalSetup: ['tests/setup/cli-bundle.ts', 'tests/setup/run-tmpdir.ts'],
    projects: [
      {
        test: {
          ...common,
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'providers/**/*.test.ts',
            'renderers/**/*.test.ts',
            'mock-servers/**/*.test.ts',
          ],
          // The unit tests beside the sources share their workers (no fresh module graph per file saves a third of
          // their CPU time); none mocks a module or leaves state that another file reads.
          isolate: false,
        },
      },
      // End-to-end tests through the real CLI, each file in a fresh worker.
      { test: { ...common, name: 'e2e', include: ['tests/**/*.test.ts'] } },
    ],
  },
});
