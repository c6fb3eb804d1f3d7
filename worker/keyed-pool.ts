/**
 * Runs items in their order, up to `width()` at once, never two with the same key at once: an item waits while
 * an earlier item of its key is running, and later items of other keys may pass it. The outbox sends its reports
 * this way (the key: the association, so each driver's part gets its reports in the order they were made).
 */
export interface KeyedPoolOptions {
  /** How many may run at once, asked before each start (it may grow as the run goes). */
  width: () => number;
  /** Asked before each start; false ends the run (what is running finishes). */
  mayStart: () => boolean;
}

/**
 * `run` answers 'stop' to end the run after what is running. Resolves once nothing runs; if a `run` threw, the
 * run ends the same way and then rejects with the first error.
 */
export function runKeyed<T>(items: readonly T[], keyOf: (item: T) => unknown, run: (item: T) => Promise<'go' | 'stop'>, options: KeyedPoolOptions): Promise<void> {
  const waiting = [...items];
  const busy = new Set<unknown>();
  let running = 0;
  let stopped = false;
  let failed: { error: unknown } | null = null;
  return new Promise<void>((resolve, reject) => {
    const finish = (key: unknown): void => {
      busy.delete(key);
      running -= 1;
      pump();
    };
    const pump = (): void => {
      while (!stopped && running < options.width()) {
        if (!options.mayStart()) {
          stopped = true;
          break;
        }
        const index = waiting.findIndex((item) => !busy.has(keyOf(item)));
        if (index < 0) break;
        const [item] = waiting.splice(index, 1) as [T];
        const key = keyOf(item);
        busy.add(key);
        running += 1;
        run(item).then(
          (next) => {
            if (next === 'stop') stopped = true;
            finish(key);
          },
          (error: unknown) => {
            failed ??= { error };
            stopped = true;
            finish(key);
          },
        );
      }
      if (running === 0) {
        if (failed) reject(failed.error);
        else resolve();
      }
    };
    pump();
  });
}
