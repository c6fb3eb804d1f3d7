/** `npm test` never prints "0 failed" over a run that Vitest itself failed. */
import { describe, expect, it } from 'vitest';
import { countVitestRun } from '../../scripts/vitest-report.mjs';

const pass = { status: 'passed' };
const fail = { status: 'failed' };

describe('countVitestRun', () => {
  it('adds passed and failed tests of a clean report', () => {
    const r = countVitestRun({ numPassedTests: 3, numFailedTests: 0, testResults: [{ name: 'a', status: 'passed', assertionResults: [pass, pass, pass] }] }, true);
    expect(r).toEqual({ passed: 3, failed: 0, problems: [] });
  });

  it('counts a file that failed beside passing tests (an empty describe, a failed hook)', () => {
    const r = countVitestRun(
      {
        numPassedTests: 2,
        numFailedTests: 0,
        testResults: [{ name: 'multi-tab.test.ts', status: 'failed', message: 'No test found in suite x', assertionResults: [pass, pass] }],
      },
      false,
    );
    expect(r.failed).toBe(1);
    expect(r.problems[0]).toContain('multi-tab.test.ts');
  });

  it('counts a file that did not load', () => {
    const r = countVitestRun({ numPassedTests: 0, numFailedTests: 0, testResults: [{ name: 'broken.test.ts', status: 'failed', assertionResults: [] }] }, false);
    expect(r.failed).toBe(1);
  });

  it('does not count a file twice when its own tests failed', () => {
    const r = countVitestRun({ numPassedTests: 1, numFailedTests: 2, testResults: [{ name: 'a', status: 'failed', assertionResults: [pass, fail, fail] }] }, false);
    expect(r.failed).toBe(2);
  });

  it('fails a run that exited non-zero with nothing failed in its report, and a run with no report', () => {
    expect(countVitestRun({ numPassedTests: 5, numFailedTests: 0, testResults: [] }, false).failed).toBe(1);
    expect(countVitestRun(null, true).failed).toBe(1);
  });
});
