export interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults?: { name: string; status: string; message?: string; assertionResults?: { status: string }[] }[];
}
export function countVitestRun(result: VitestJsonReport | null, exitedClean: boolean): { passed: number; failed: number; problems: string[] };
