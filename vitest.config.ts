import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';

// One runner, three suites: server/contract (node, real databases), client (jsdom), end-to-end (real Chromium).
export default defineConfig({
  test: {
    // Vitest's default (cores - 1) runs the server and client files one at a time on a 2-core machine, where most
    // server files wait on child processes, databases and timers: two at a time uses the idle core. The end-to-end
    // files still run one after another (fileParallelism below).
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
      {
        plugins: [vanillaExtractPlugin(), react()],
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'tests/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/jsdom.ts'],
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          // One shared server and one browser build: files run one after another.
          fileParallelism: false,
          pool: 'forks',
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
