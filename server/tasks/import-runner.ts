/**
 * The Excel import reads its file off the request thread (docs/task-entry.md «Нагрузка»): in a worker thread
 * (import-worker.mjs → import-thread.ts) under a heap ceiling and a time limit, at most `importsPerProcess` threads,
 * each ended once it has been idle `IMPORT_IDLE_MS` (or has failed, or run out of time), so a file's memory goes
 * back with its thread; and only a few files at once — `importsPerCompany` of one company and `importsPerProcess`
 * in all (config): one more is refused at once, 429 or 503 with Retry-After, rather than queued behind files that
 * may take seconds each. A thread is kept idle for a while because starting one (tsx, exceljs, zod) takes longer
 * than reading a usual file: the preview and the import that follows it share one.
 */
import { Worker } from 'node:worker_threads';
import { HttpError } from '../errors.ts';
import { ImportFileError, type ImportDriver, type ImportRow } from './import-xlsx.ts';
import type { ThreadAnswer, ThreadTask } from './import-thread.ts';

const ENTRY = new URL('./import-worker.mjs', import.meta.url);

/** A thread's heap ceiling: files within the guards' caps need a fraction of it. */
export const IMPORT_HEAP_MB = 256;
/** A file not read by then is given up (its thread is ended). */
export const IMPORT_TIMEOUT_MS = 60_000;
/** An idle thread is ended after this long. */
export const IMPORT_IDLE_MS = 15_000;
/** What a refused import is told to wait: a file within the caps is read in a second or two. */
export const IMPORT_RETRY_AFTER_SECONDS = 5;

const TOO_COMPLEX = 'Файл слишком сложный для импорта: сохраните в новый файл только лист с задачами и столбцы шаблона.';
const TOO_SLOW = 'Файл читается слишком долго: сохраните в новый файл только лист с задачами и столбцы шаблона.';
export const COMPANY_BUSY = 'Файл этой компании уже проверяется: дождитесь результата и повторите через несколько секунд';
export const SERVER_BUSY = 'Сервер сейчас читает файлы других компаний: повторите через несколько секунд';

export interface ImportRun {
  rows: ImportRow[];
  /** The thread that read the file (the main thread is 0): what shows the work left the request thread. */
  threadId: number;
  isMainThread: boolean;
}

export interface ImportThreadLimits {
  heapMb: number;
  timeoutMs: number;
  idleMs: number;
}

/** The worker threads that read import files: one file at a time each, kept idle for a while, then ended. */
export class ImportThreads {
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private closed = false;
  private live = 0;

  constructor(private readonly limits: ImportThreadLimits = { heapMb: IMPORT_HEAP_MB, timeoutMs: IMPORT_TIMEOUT_MS, idleMs: IMPORT_IDLE_MS }) {}

  /** Reads a file in a thread: the rows, or an `ImportFileError` (for the user) when it is refused. */
  async read(file: Buffer, drivers: readonly ImportDriver[]): Promise<ImportRun> {
    const worker = this.takeIdle() ?? this.start();
    // A copy is handed over (transferred, not cloned again): the caller keeps its bytes.
    const copy = new Uint8Array(file);
    const task: ThreadTask = { file: copy, drivers: [...drivers] };
    worker.ref();
    let answer: ThreadAnswer;
    try {
      answer = await new Promise<ThreadAnswer>((resolve, reject) => {
        const timer = setTimeout(() => (done(), reject(new ImportFileError(TOO_SLOW))), this.limits.timeoutMs);
        const done = () => {
          clearTimeout(timer);
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        };
        const onMessage = (message: ThreadAnswer) => (done(), resolve(message));
        const onError = (error: NodeJS.ErrnoException) => (done(), reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ImportFileError(TOO_COMPLEX, { cause: error }) : error));
        const onExit = (code: number) => (done(), reject(new Error(`task import thread exited (${code}) without an answer`)));
        worker.on('message', onMessage).on('error', onError).on('exit', onExit);
        worker.postMessage(task, [copy.buffer as ArrayBuffer]);
      });
    } catch (error) {
      void worker.terminate();
      throw error;
    }
    this.park(worker);
    if (answer.kind === 'rows') return { rows: answer.rows, threadId: answer.threadId, isMainThread: answer.isMainThread };
    if (answer.kind === 'file') throw new ImportFileError(answer.message, answer.cause ? { cause: answer.cause } : undefined);
    throw new Error(`task import thread failed: ${answer.message}`);
  }

  /** Threads alive now, idle ones included (0 once every file is answered and the idle time has passed). */
  get alive(): number {
    return this.live;
  }

  /** Ends every idle thread; a busy one ends when its file is answered. */
  close(): void {
    this.closed = true;
    for (const [worker, timer] of this.idle) {
      clearTimeout(timer);
      void worker.terminate();
    }
    this.idle.clear();
  }

  private start(): Worker {
    const worker = new Worker(ENTRY, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb } });
    this.live++;
    worker.once('exit', () => {
      this.live--;
      const timer = this.idle.get(worker);
      if (timer) clearTimeout(timer);
      this.idle.delete(worker);
    });
    // An error outside a file's reading (none is expected) ends the thread; `exit` tidies up.
    worker.on('error', () => undefined);
    return worker;
  }

  private takeIdle(): Worker | undefined {
    const [entry] = this.idle;
    if (!entry) return undefined;
    const [worker, timer] = entry;
    clearTimeout(timer);
    this.idle.delete(worker);
    return worker;
  }

  private park(worker: Worker): void {
    if (this.closed) {
      void worker.terminate();
      return;
    }
    // An idle thread does not keep the process alive.
    worker.unref();
    this.idle.set(worker, setTimeout(() => void worker.terminate(), this.limits.idleMs).unref());
  }
}

/** The imports running now: per company and in all. */
export class ImportSlots {
  private running = 0;
  private readonly byCompany = new Map<number, number>();

  constructor(
    private readonly perProcess: number,
    private readonly perCompany: number,
  ) {}

  /** Takes a slot for one of the company's files, or refuses it (429: the company's own; 503: the process's); returns its release. */
  take(companyId: number): () => void {
    const retryAfter = { 'retry-after': String(IMPORT_RETRY_AFTER_SECONDS) };
    const mine = this.byCompany.get(companyId) ?? 0;
    if (mine >= this.perCompany) throw new HttpError(429, COMPANY_BUSY, retryAfter);
    if (this.running >= this.perProcess) throw new HttpError(503, SERVER_BUSY, retryAfter);
    this.running++;
    this.byCompany.set(companyId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = (this.byCompany.get(companyId) ?? 1) - 1;
      if (left > 0) this.byCompany.set(companyId, left);
      else this.byCompany.delete(companyId);
    };
  }
}
