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
import { HttpError, badRequest } from '../errors.ts';
import { ImportFileError, type ImportDriver, type ImportRow } from './import-xlsx.ts';
import type { OpenedBody, ThreadAnswer, ThreadTask } from './import-thread.ts';

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
    const answer = await this.ask(worker, { kind: 'read', file: copy, drivers: [...drivers] }, [copy.buffer as ArrayBuffer]);
    this.park(worker);
    return rowsOf(answer);
  }

  /**
   * Reads an import call's raw JSON body in a thread (import-thread.ts): the body parsed and checked, the file decoded
   * and hashed there, not on the request thread. `prepare` hears the file's name, company and hash and answers the
   * company's drivers, or throws (the company not the caller's, the file imported before): then nothing is read.
   * A body that is not the call's is a 400 naming the field.
   */
  async readBody(body: Buffer, prepare: (opened: OpenedBody) => Promise<readonly ImportDriver[]>): Promise<ImportRun & { opened: OpenedBody }> {
    const worker = this.takeIdle() ?? this.start();
    const copy = new Uint8Array(body);
    const first = await this.ask(worker, { kind: 'open', body: copy }, [copy.buffer as ArrayBuffer]);
    if (first.kind !== 'opened') {
      this.park(worker);
      if (first.kind === 'bad') throw badRequest(first.detail);
      return { ...rowsOf(first), opened: { fileName: '', companyId: undefined, hash: '', createMissing: false } };
    }
    const { kind: _, ...opened } = first;
    let drivers: readonly ImportDriver[];
    try {
      drivers = await prepare(opened);
    } catch (error) {
      worker.postMessage({ kind: 'drop' } satisfies ThreadTask);
      this.park(worker);
      throw error;
    }
    const answer = await this.ask(worker, { kind: 'read', drivers: [...drivers] });
    this.park(worker);
    return { ...rowsOf(answer), opened };
  }

  /** One task to a thread and its answer; a thread that fails, runs out of heap or of time is ended. */
  private async ask(worker: Worker, task: ThreadTask, transfer: ArrayBuffer[] = []): Promise<ThreadAnswer> {
    worker.ref();
    try {
      return await new Promise<ThreadAnswer>((resolve, reject) => {
        const timer = setTimeout(() => (done(), reject(new ImportFileError(TOO_SLOW))), this.limits.timeoutMs);
        const done = () => {
          clearTimeout(timer);
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        };
        const onMessage = (message: ThreadAnswer) => (done(), resolve(message));
        const onError = (error: NodeJS.ErrnoException) => (done(), reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ImportFileError(TOO_COMPLEX, { cause: error }) : error));
        const onExit = (code: number) => (done(), reject(new Error(`task import thread exited (${code}) without an answer`)));
        worker.on('message', onMessage).on('error', onError).on('exit', onExit);
        worker.postMessage(task, transfer);
      });
    } catch (error) {
      void worker.terminate();
      throw error;
    }
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

/** A thread's answer to `read` as the caller gets it: the rows, or the file's refusal thrown. */
function rowsOf(answer: ThreadAnswer): ImportRun {
  if (answer.kind === 'rows') return { rows: answer.rows, threadId: answer.threadId, isMainThread: answer.isMainThread };
  if (answer.kind === 'file') throw new ImportFileError(answer.message, answer.cause ? { cause: answer.cause } : undefined);
  throw new Error(`task import thread failed: ${answer.kind === 'error' ? answer.message : `unexpected answer ${answer.kind}`}`);
}

/** An import's place among those running: taken before its body is read, given back once it is answered. */
export interface ImportSlot {
  /** Counts it against this company too, when the company was not known when it was taken (a super-admin's): 429 when the company's are taken. */
  company(companyId: number): void;
  /** Gives it back (again: nothing). */
  release(): void;
}

/** The imports running now: per company and in all. */
export class ImportSlots {
  private running = 0;
  private readonly byCompany = new Map<number, number>();

  constructor(
    private readonly perProcess: number,
    private readonly perCompany: number,
  ) {}

  /**
   * Takes a slot for one of the company's files (the company may be known only later: `ImportSlot.company`), or
   * refuses it: 429 when the company's own are taken, 503 when the process's are.
   */
  take(companyId: number | null): ImportSlot {
    if (companyId !== null) this.checkCompany(companyId);
    if (this.running >= this.perProcess) throw new HttpError(503, SERVER_BUSY, RETRY_AFTER);
    this.running++;
    let counted: number | null = null;
    let released = false;
    const slot: ImportSlot = {
      company: (id) => {
        if (released || counted === id) return;
        if (counted !== null) throw new Error(`import slot already counted for company ${counted}, not ${id}`);
        this.checkCompany(id);
        this.byCompany.set(id, (this.byCompany.get(id) ?? 0) + 1);
        counted = id;
      },
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        if (counted === null) return;
        const left = (this.byCompany.get(counted) ?? 1) - 1;
        if (left > 0) this.byCompany.set(counted, left);
        else this.byCompany.delete(counted);
      },
    };
    if (companyId !== null) slot.company(companyId);
    return slot;
  }

  private checkCompany(companyId: number): void {
    if ((this.byCompany.get(companyId) ?? 0) >= this.perCompany) throw new HttpError(429, COMPANY_BUSY, RETRY_AFTER);
  }
}

const RETRY_AFTER = { 'retry-after': String(IMPORT_RETRY_AFTER_SECONDS) };
