/**
 * How one Vitest run counts towards `npm test`'s closing line. A run fails the whole command when Vitest exits
 * non-zero or reports a failed file, whatever its test counts say: a file that failed to load, an empty suite,
 * an error thrown outside a test or a failed hook each count as one failure.
 *
 * @param {{numPassedTests: number, numFailedTests: number, testResults?: {name: string, status: string, message?: string, assertionResults?: {status: string}[]}[]} | null} result
 *   Vitest's JSON report, or null when there was none.
 * @param {boolean} exitedClean whether Vitest exited 0.
 * @returns {{passed: number, failed: number, problems: string[]}}
 */
export function countVitestRun(result, exitedClean) {
  if (!result) return { passed: 0, failed: 1, problems: ['no test report'] };
  let failed = result.numFailedTests;
  const problems = [];
  for (const suite of result.testResults ?? []) {
    if (suite.status !== 'failed') continue;
    // A failed file with no failed test of its own: it did not load, or its hooks or an empty suite failed.
    if (!(suite.assertionResults ?? []).some((a) => a.status === 'failed')) {
      failed += 1;
      problems.push(`failed file without a failed test: ${suite.name}${suite.message ? ` — ${suite.message.split('\n')[0]}` : ''}`);
    }
  }
  // Vitest said no but nothing above was counted (an unhandled error, a project that failed to start).
  if (!exitedClean && failed === 0) {
    failed = 1;
    problems.push('Vitest exited non-zero with no failed test or file in its report');
  }
  return { passed: result.numPassedTests, failed, problems };
}
