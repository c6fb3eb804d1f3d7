/**
 * Does a second instance carry more load? GET /api/users/me/ and GET /api/tasks/assigned/ at 50
 * keep-alive connections through HAProxy, against one server process and against two (both on PostgreSQL, the
 * harness of the e2e-cluster run), with a bare Fastify route in the same run as the ceiling. On this 2-core
 * machine the load client, HAProxy, PostgreSQL and the instances share the same two cores, so "two ÷ one"
 * here shows what the second process costs or gains with no spare core; on a machine with cores to spare per
 * instance it is the figure to watch.
 *
 * PostgreSQL: TEST_DATABASE_URL, or a throwaway one (scripts/ci-postgres.sh) where PostgreSQL is installed.
 */
import Fastify from 'fastify';
import { execFileSync, spawnSync } from 'node:child_process';
import { login } from '../tests/fixtures/accounts.ts';
import { haproxyPath, startCluster, type Cluster } from '../tests/fixtures/cluster.ts';
import { DEMO, DEMO_PASSWORD } from '../tests/e2e/harness/app.ts';
import { figure, round, type Benchmark, type SectionResult } from './support.ts';
import { CONNECTIONS, SECONDS, load, type Load } from './server-load.ts';

/** TEST_DATABASE_URL, or a throwaway cluster started here (its folder answered for the stop). */
function postgres(): { started: string | null } | null {
  if (process.env.TEST_DATABASE_URL) return { started: null };
  if (spawnSync('sh', ['-c', 'command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl'], { stdio: 'ignore' }).status !== 0) return null;
  const out = execFileSync('bash', ['scripts/ci-postgres.sh', 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  process.env.TEST_DATABASE_URL = /TEST_DATABASE_URL=(\S+)/.exec(out)?.[1] ?? '';
  return { started: /PG_DIR=(\S+)/.exec(out)?.[1] ?? null };
}

async function measure(instances: number): Promise<{ me: Load; assigned: Load }> {
  const cluster: Cluster = await startCluster({ instances });
  try {
    const token = (await login(cluster, DEMO.driver, DEMO_PASSWORD)).access_token;
    const me = await load(`${cluster.url}/api/users/me/`, token);
    const assigned = await load(`${cluster.url}/api/tasks/assigned/`, token);
    return { me, assigned };
  } finally {
    await cluster.close();
  }
}

export const clusterLoad: Benchmark = {
  id: 'cluster-load',
  title: `Two instances behind HAProxy against one: ${CONNECTIONS} connections, ${SECONDS} s per figure, PostgreSQL`,
  async run(): Promise<SectionResult> {
    const skipped = (reason: string): SectionResult => ({ ours: '', baseline: '', figures: [], skipped: reason });
    if (!haproxyPath()) return skipped('HAProxy is not installed (apt-get install haproxy)');
    const pg = postgres();
    if (!pg) return skipped('PostgreSQL is not installed and TEST_DATABASE_URL is not set');
    const bare = Fastify({ logger: false });
    bare.get('/bare', async () => ({ id: 1, name: 'bare' }));
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    try {
      const ceiling = await load(`${bareUrl}/bare`, null);
      const one = await measure(1);
      const two = await measure(2);
      const errors = ceiling.errors + one.me.errors + one.assigned.errors + two.me.errors + two.assigned.errors;
      return {
        ours: 'two server processes behind HAProxy (round-robin, no sticky sessions), PostgreSQL',
        baseline: 'one server process behind the same HAProxy; for the ceiling rows, a bare Fastify route',
        figures: [
          figure('GET /users/me/ req/s, two ÷ one', 'req/s', round(two.me.rps, 0), round(one.me.rps, 0)),
          figure('GET /users/me/ p50, two ÷ one', 'ms', round(two.me.p50, 2), round(one.me.p50, 2)),
          figure('GET /users/me/ p99, two ÷ one', 'ms', round(two.me.p99, 2), round(one.me.p99, 2)),
          figure('GET /tasks/assigned/ req/s, two ÷ one', 'req/s', round(two.assigned.rps, 0), round(one.assigned.rps, 0)),
          figure('GET /tasks/assigned/ p50, two ÷ one', 'ms', round(two.assigned.p50, 2), round(one.assigned.p50, 2)),
          figure('GET /tasks/assigned/ p99, two ÷ one', 'ms', round(two.assigned.p99, 2), round(one.assigned.p99, 2)),
          figure('GET /users/me/ req/s, two ÷ bare route', 'req/s', round(two.me.rps, 0), round(ceiling.rps, 0)),
          figure('GET /tasks/assigned/ req/s, two ÷ bare route', 'req/s', round(two.assigned.rps, 0), round(ceiling.rps, 0)),
          figure('errors (non-200 or failed)', 'count', errors, 0, { goal: '0', met: errors === 0 }),
        ],
        details: { ceiling, one, two, connections: CONNECTIONS, seconds: SECONDS },
      };
    } finally {
      await bare.close();
      if (pg.started) {
        spawnSync('bash', ['scripts/ci-postgres.sh', 'stop', pg.started], { stdio: 'ignore' });
        delete process.env.TEST_DATABASE_URL;
      }
    }
  },
};
