/**
 * `npm run bench` (after `vite build`): runs every benchmark in turn against the real server and Chromium,
 * prints one table per benchmark and writes the same to bench/results/<timestamp>.json. Figures, not
 * tests: a missed goal is reported, not failed; only a benchmark that could not finish makes the exit code 1.
 * `npm run bench -- refresh-storm cached-get` runs only the named ones; `--name value` options after the names are
 * the benchmarks' own (`npm run bench -- scale --years 1 --trucks 50`). A benchmark with its own watchdog (scale)
 * runs only when named; one with `strictGoals` fails the run when it misses a goal.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { cachedGet } from './cached-get.ts';
import { compression } from './compression.ts';
import { exportRows, taskList } from './console.ts';
import { initialJs } from './initial-js.ts';
import { longTasks } from './long-tasks.ts';
import { outboxFlush } from './outbox-flush.ts';
import { refreshStorm } from './refresh-storm.ts';
import { serverLoad } from './server-load.ts';
import { clusterLoad } from './cluster-load.ts';
import { liveFeed } from './live-feed.ts';
import { outboxRestart } from './outbox-restart.ts';
import { loads } from './loads.ts';
import { payroll } from './payroll.ts';
import { dispatch } from './dispatch.ts';
import { importXlsx } from './import.ts';
import { importLoad } from './import-load.ts';
import { wire } from './wire.ts';
import { uploadMemory } from './upload-memory.ts';
import { lighthouseDriver, lighthouseLogin } from './lighthouse.ts';
import { scale } from './scale.ts';
import { tripPositions, tripStepTap } from './trip-bench.ts';
import { printSection, printSummary, type SectionRecord } from './table.ts';
import { environment, type Benchmark } from './support.ts';

const ALL: Benchmark[] = [refreshStorm, cachedGet, initialJs, longTasks, compression, outboxFlush, taskList, exportRows, serverLoad, clusterLoad, liveFeed, outboxRestart, loads, payroll, dispatch, importXlsx, importLoad, wire, uploadMemory, lighthouseLogin, lighthouseDriver, scale, tripStepTap, tripPositions];
/** The whole run stops by itself even if a browser or a server hangs. */
const WATCHDOG_MS = 10 * 60_000;

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const firstOption = args.findIndex((a) => a.startsWith('--'));
  const wanted = firstOption === -1 ? args : args.slice(0, firstOption);
  const unknown = wanted.filter((id) => !ALL.some((b) => b.id === id));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${ALL.map((b) => b.id).join(', ')}`);
    return 2;
  }
  const selected = wanted.length > 0 ? ALL.filter((b) => wanted.includes(b.id)) : ALL.filter((b) => b.watchdogMinutes === undefined);
  const minutes = Math.max(WATCHDOG_MS / 60_000, ...selected.map((b) => b.watchdogMinutes ?? 0));
  setTimeout(() => {
    console.error(`the benchmarks did not finish within ${minutes} min: stopping`);
    process.exit(3);
  }, minutes * 60_000).unref();
  const startedAt = new Date();
  const sections: SectionRecord[] = [];
  for (const bench of selected) {
    process.stdout.write(`\n… ${bench.title}\n`);
    const started = performance.now();
    let record: SectionRecord;
    try {
      record = { id: bench.id, title: bench.title, seconds: 0, ...(await bench.run()) };
    } catch (error) {
      record = { id: bench.id, title: bench.title, seconds: 0, ours: '', baseline: '', figures: [], error: String((error as Error).stack ?? error) };
    }
    record.seconds = Math.round((performance.now() - started) / 100) / 10;
    sections.push(record);
    printSection(record);
  }
  printSummary(sections);

  const finishedAt = new Date();
  const dir = resolve('bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const json = {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    seconds: Math.round((finishedAt.getTime() - startedAt.getTime()) / 100) / 10,
    commit: gitCommit(),
    node: process.version,
    browser: environment.browserVersion,
    cpus: cpus().length,
    sections,
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`\nwritten: ${file}\n`);
  const missed = sections.filter((s) => selected.find((b) => b.id === s.id)?.strictGoals && s.figures.some((f) => f.goal && !f.met));
  if (missed.length > 0) process.stdout.write(`goals missed: ${missed.map((s) => s.id).join(', ')}\n`);
  return sections.some((s) => s.error) || missed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
