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
  },
});
