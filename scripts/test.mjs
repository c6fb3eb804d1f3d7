#!/usr/bin/env node
// The one test command (README): typecheck, lint, build, then every Vitest project (unit, server, e2e).
// Ends with "N passed, N failed", summing every suite; the typecheck and lint each count as one check.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

let passed = 0;
let failed = 0;

function run(label, cmd, args) {
  console.info(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  return r.status === 0;
}

function check(label, cmd, args) {
  if (run(label, cmd, args)) passed += 1;
  else {
    failed += 1;
    console.error(`✗ ${label} failed`);
  }
}

check('typecheck', 'npm', ['run', '-s', 'typecheck']);
check('lint', 'npm', ['run', '-s', 'lint']);
const built = run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
if (!built) failed += 1;

mkdirSync('.tmp', { recursive: true });
const report = '.tmp/vitest.json';
rmSync(report, { force: true });
const projects = built ? [] : ['--project', 'unit', '--project', 'server'];
run('tests', 'npx', ['vitest', 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile=${report}`]);
try {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  // A suite that fails to load has no tests to count; count it as a failure so it is never silent.
  for (const suite of result.testResults ?? []) {
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) failed += 1;
  }
} catch (e) {
  console.error('no test report:', e.message);
  failed += 1;
}

if (!process.env.TEST_DATABASE_URL) {
  console.info('\nThe server suite ran on SQLite only: the PostgreSQL run was skipped (set TEST_DATABASE_URL=postgres://…, or run `bash .ci/run`, which starts a throwaway PostgreSQL).');
}
console.info(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
