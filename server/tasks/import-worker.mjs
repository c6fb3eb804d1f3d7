/**
 * The entry of a task import's worker thread (import-runner.ts). The server runs its TypeScript through tsx
 * (`node --import tsx`), but a worker thread on Node 20 loads its entry before any `--import` hook of its own, so
 * it cannot start from a .ts file: this plain module registers tsx in the thread, then loads the thread's work.
 * Started with no execArgv (the parent's `--import tsx` would register it twice), the same under `npm start`,
 * the tests (Vitest) and the benchmarks.
 */
import { register } from 'tsx/esm/api';

register();
await import('./import-thread.ts');
