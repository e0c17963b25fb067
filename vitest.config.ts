import { defineConfig } from 'vitest/config';

// One runner, three suites: server/contract (node, real databases), client (jsdom), end-to-end (real Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['contract/**/*.test.ts', 'server/**/*.test.ts', 'tests/server/**/*.test.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
