/**
 * The API under load — 50 keep-alive connections for a few seconds each (the client in a child
 * process), requests per second, p50 and p99 — for GET /api/users/me/ and GET /api/tasks/assigned/ (the
 * driver's two most frequent calls), against a bare Fastify route in the same process and run as the ceiling.
 * Also the cost of refusing a logged-out or deactivated session at once: the session check
 * with its 2 s per-process cache against the same check asking the database on every call.
 */
import Fastify from 'fastify';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { seedDemo } from '../server/db/seed.ts';
import { login } from '../tests/fixtures/accounts.ts';
import { startTestServer, type TestServer } from '../tests/fixtures/server.ts';
import { DEMO, DEMO_PASSWORD } from '../tests/e2e/harness/app.ts';
import { figure, percentile, round, type Benchmark, type SectionResult } from './support.ts';

export const CONNECTIONS = 50;
export const SECONDS = 4;

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url));

export function load(url: string, token: string | null): Promise<Load> {
  const job = JSON.stringify({ url, token, seconds: SECONDS, connections: CONNECTIONS });
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', CLIENT], { env: { ...process.env, LOAD_JOB: job }, maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const result = JSON.parse(stdout) as { latencies: number[]; errors: number };
      resolve({
        rps: result.latencies.length / SECONDS,
        p50: percentile(result.latencies, 50),
        p99: percentile(result.latencies, 99),
        errors: result.errors,
      });
    });
  });
}

async function server(sessionCacheMs?: number): Promise<TestServer> {
  const s = await startTestServer({ listen: true, ...(sessionCacheMs === undefined ? {} : { config: { sessionCacheMs } }) });
  await seedDemo(s.db);
  return s;
}

export const serverLoad: Benchmark = {
  id: 'server-load',
  title: `API under load: ${CONNECTIONS} connections, ${SECONDS} s per figure, one instance on SQLite`,
  async run(): Promise<SectionResult> {
    const bare = Fastify({ logger: false });
    bare.get('/bare', async () => ({ id: 1, name: 'bare' }));
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const cached = await server();
    const uncached = await server(0);
    try {
      const ceiling = await load(`${bareUrl}/bare`, null);
      const driver = (await login(cached, DEMO.driver, DEMO_PASSWORD)).access_token;
      const me = await load(`${cached.url}/api/users/me/`, driver);
      const assigned = await load(`${cached.url}/api/tasks/assigned/`, driver);
      const driverUncached = (await login(uncached, DEMO.driver, DEMO_PASSWORD)).access_token;
      const meUncached = await load(`${uncached.url}/api/users/me/`, driverUncached);
      const errors = ceiling.errors + me.errors + assigned.errors + meUncached.errors;
      return {
        ours: 'the real app (auth, session check, zod, Kysely on SQLite, JSON)',
        baseline: 'a bare Fastify route in the same process; for the session row, the check without its cache',
        figures: [
          figure('GET /users/me/ req/s', 'req/s', round(me.rps, 0), round(ceiling.rps, 0)),
          figure('GET /users/me/ p50', 'ms', round(me.p50, 2), round(ceiling.p50, 2)),
          figure('GET /users/me/ p99', 'ms', round(me.p99, 2), round(ceiling.p99, 2)),
          figure('GET /tasks/assigned/ req/s', 'req/s', round(assigned.rps, 0), round(ceiling.rps, 0)),
          figure('GET /tasks/assigned/ p99', 'ms', round(assigned.p99, 2), round(ceiling.p99, 2)),
          figure('session check cached ÷ uncached, req/s', 'req/s', round(me.rps, 0), round(meUncached.rps, 0), {
            note: 'above 1: what the 2 s cache saves over a database lookup per call',
          }),
          figure('errors (non-200 or failed)', 'count', errors, 0, { goal: '0', met: errors === 0 }),
        ],
        details: { ceiling, me, assigned, meUncached, connections: CONNECTIONS, seconds: SECONDS },
      };
    } finally {
      await bare.close();
      await cached.close();
      await uncached.close();
    }
  },
};
