import { spawnSync } from 'node:child_process';
import { defineConfig } from 'vitest/config';

/** The end-to-end suite's core, run again against two server instances behind HAProxy (issue 11). */
const CLUSTER_CORE = [
  'tests/e2e/cluster.test.ts',
  'tests/e2e/multi-tab.test.ts',
  'tests/e2e/driver-outbox.test.ts',
  'tests/e2e/registration.test.ts',
  'tests/e2e/export-table.test.ts',
];
const clusterAvailable =
  Boolean(process.env.TEST_DATABASE_URL) &&
  spawnSync('sh', ['-c', 'command -v haproxy || ls /usr/sbin/haproxy'], { stdio: 'ignore' }).status === 0;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/worker/**/*.test.ts', 'tests/ui/**/*.test.{ts,tsx}', 'tests/scripts/**/*.test.ts', 'tests/contract/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // The files share their worker's module cache: each starts its own server and database, and none mocks a
          // module, so importing the server once per worker (not once per file) is the only difference — about half
          // of this suite's time on two cores.
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: ['tests/e2e/cluster.test.ts', 'tests/e2e/firefox/**'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      {
        // Firefox ESR (/usr/bin/firefox-esr) through puppeteer-core over WebDriver BiDi: issue 30.
        test: {
          name: 'e2e-firefox',
          include: ['tests/e2e/firefox/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      ...(clusterAvailable
        ? [
            {
              test: {
                name: 'e2e-cluster',
                include: CLUSTER_CORE,
                env: { E2E_CLUSTER: '1' },
                environment: 'node',
                testTimeout: 90_000,
                hookTimeout: 90_000,
              },
            },
          ]
        : []),
    ],
  },
});
