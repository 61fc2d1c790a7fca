import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import solid from 'vite-plugin-solid';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    // Every `tooldesk` a test spawns runs the TypeScript sources through tsx, so a test sees the
    // code under test without a build in between (and parallel test files never race to rebuild
    // out/cli). What users run, the bundle, is tested by test/integration/cli-bundle.test.ts.
    env: { TOOLDESK_FROM_SOURCES: '1' },
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'runtime',
          environment: 'node',
          // electron-store imports `electron`; inlined so a test's vi.mock('electron') applies to it.
          server: { deps: { inline: ['electron-store'] } },
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: ['test/unit/renderer/**', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        plugins: [solid()],
        resolve: { conditions: ['development', 'browser'] },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/unit/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['test/support/renderer-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
