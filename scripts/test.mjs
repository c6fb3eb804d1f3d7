#!/usr/bin/env node
// The one test command (README): typecheck, lint, build, then every Vitest project (unit, server, e2e, e2e-firefox,
// and e2e-cluster — the core end-to-end files again through two server instances behind HAProxy on PostgreSQL).
// Ends with "N passed, N failed", summing every suite; the typecheck and lint each count as one check.
// On a fresh machine it finds what it needs: Chromium and Firefox ESR (installed with apt-get when run as root, else
// one line saying what to run), and a throwaway PostgreSQL for the server suite's second run where PostgreSQL is
// installed and TEST_DATABASE_URL is not set (.ci/run starts its own and sets it).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { countVitestRun } from './vitest-report.mjs';

/** The browsers the end-to-end projects drive: Debian's Chromium (e2e) and Firefox ESR (e2e-firefox). */
const BROWSERS = [
  { name: 'Chromium', path: '/usr/bin/chromium', apt: 'chromium' },
  { name: 'Firefox ESR', path: '/usr/bin/firefox-esr', apt: 'firefox-esr' },
];
const missingBrowsers = BROWSERS.filter((b) => !existsSync(b.path));
if (missingBrowsers.length > 0) {
  const root = process.getuid?.() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  const packages = missingBrowsers.map((b) => b.apt).join(' ');
  if (root && apt) {
    console.info(`${missingBrowsers.map((b) => `${b.name} is missing at ${b.path}`).join('; ')}: installing (apt-get install ${packages})…`);
    spawnSync('sh', ['-c', `apt-get update -qq && apt-get install -y -qq ${packages} >/dev/null`], { stdio: 'inherit' });
  }
  const still = missingBrowsers.filter((b) => !existsSync(b.path));
  if (still.length > 0) {
    const names = still.map((b) => `${b.name} at ${b.path}`).join(' and ');
    console.error(`The browser tests need ${names}: run \`sudo apt-get install ${still.map((b) => b.apt).join(' ')}\`, then \`npm test\` again.`);
    process.exit(1);
  }
}

/**
 * The two-instance run (PostgreSQL, two server processes, HAProxy) needs haproxy: installed with apt-get when
 * run as root where PostgreSQL is there too, else that run is skipped with a line saying so.
 */
const hasHaproxy = () => spawnSync('sh', ['-c', 'command -v haproxy || ls /usr/sbin/haproxy'], { stdio: 'ignore' }).status === 0;

/** A throwaway PostgreSQL where one is installed, so the server suite also runs there (stopped at the end). */
let pgDir = null;
const pgInstalled = spawnSync('sh', ['-c', 'command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl'], { stdio: 'ignore' }).status === 0;
if (!process.env.TEST_DATABASE_URL && pgInstalled) {
  try {
    const out = execFileSync('bash', ['scripts/ci-postgres.sh', 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    process.env.TEST_DATABASE_URL = /TEST_DATABASE_URL=(\S+)/.exec(out)?.[1] ?? '';
    pgDir = /PG_DIR=(\S+)/.exec(out)?.[1] ?? null;
    // Stopped however the run ends, also on Ctrl-C.
    process.on('SIGINT', () => {
      if (pgDir) spawnSync('bash', ['scripts/ci-postgres.sh', 'stop', pgDir], { stdio: 'inherit' });
      process.exit(130);
    });
  } catch (error) {
    console.info(`A throwaway PostgreSQL did not start (${error.message.split('\n')[0]}); the server suite runs on SQLite only.`);
  }
}

if (process.env.TEST_DATABASE_URL && !hasHaproxy() && process.getuid?.() === 0) {
  console.info('HAProxy is missing for the two-instance run: installing it (apt-get install haproxy)…');
  spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq haproxy >/dev/null'], { stdio: 'inherit' });
}

let passed = 0;
let failed = 0;

function run(label, cmd, args) {
  console.info(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  return r.status === 0;
}

/** Runs a command with its output held back, so two can run at once and still print whole. */
function runQuiet(label, cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => {
      console.info(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
      if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      if (status === 0) passed += 1;
      else {
        failed += 1;
        console.error(`✗ ${label} failed`);
      }
      resolve();
    });
  });
}

// The typecheck and the lint read the same files and need no build: side by side on two cores.
await Promise.all([runQuiet('typecheck', 'npm', ['run', '-s', 'typecheck']), runQuiet('lint', 'npm', ['run', '-s', 'lint'])]);
const built = run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
if (!built) failed += 1;

mkdirSync('.tmp', { recursive: true });

/** One Vitest run with a JSON report; its counts (countVitestRun) are added to the total. */
function vitest(label, projects, report, extra = []) {
  rmSync(report, { force: true });
  const exitedClean = run(label, 'npx', ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile=${report}`, ...extra]);
  let result = null;
  try {
    result = JSON.parse(readFileSync(report, 'utf8'));
  } catch (e) {
    console.error('no test report:', e.message);
  }
  const counted = countVitestRun(result, exitedClean);
  passed += counted.passed;
  failed += counted.failed;
  for (const problem of counted.problems) console.error(`✗ ${label}: ${problem}`);
}

// Unit and server files run side by side; then the browser suites (Chromium's, Firefox's, the two-instance run), two
// files at a time (each file starts its own server, database, fault proxy and browser, so they share nothing; most
// of a browser test's time is waiting).
vitest('unit and server tests', ['unit', 'server'], '.tmp/vitest-node.json');
if (built) vitest('browser tests', ['e2e*'], '.tmp/vitest-e2e.json', ['--maxWorkers=2']);

if (pgDir) spawnSync('bash', ['scripts/ci-postgres.sh', 'stop', pgDir], { stdio: 'inherit' });
if (!process.env.TEST_DATABASE_URL) {
  console.info('\nThe server suite ran on SQLite only: the PostgreSQL run was skipped (install PostgreSQL — `apt-get install postgresql` — and npm test starts a throwaway one, or set TEST_DATABASE_URL=postgres://…).');
}
if (process.env.TEST_DATABASE_URL && !hasHaproxy()) {
  console.info('The two-instance run was skipped: it needs HAProxy (`apt-get install haproxy`) besides PostgreSQL.');
}
console.info(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
