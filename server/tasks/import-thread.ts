/**
 * A task import's worker thread (started by import-runner.ts through import-worker.mjs): reads each file it is
 * handed — the guards and exceljs (import-xlsx.ts) — and posts the rows back, or the reason the file is refused.
 * One file at a time; the runner ends the thread when it has been idle a while, and all it allocated goes with it.
 */
import { isMainThread, parentPort, threadId } from 'node:worker_threads';
import { ImportFileError, parseTaskImport, type ImportDriver, type ImportRow } from './import-xlsx.ts';

export interface ThreadTask {
  file: Uint8Array;
  drivers: ImportDriver[];
}

export type ThreadAnswer =
  | { kind: 'rows'; rows: ImportRow[]; threadId: number; isMainThread: boolean }
  | { kind: 'file'; message: string; cause: string | null }
  | { kind: 'error'; message: string };

async function read({ file, drivers }: ThreadTask): Promise<ThreadAnswer> {
  try {
    const rows = await parseTaskImport(Buffer.from(file.buffer, file.byteOffset, file.byteLength), { drivers });
    return { kind: 'rows', rows, threadId, isMainThread };
  } catch (error) {
    if (error instanceof ImportFileError) return { kind: 'file', message: error.message, cause: error.cause ? String(error.cause) : null };
    return { kind: 'error', message: String((error as Error).stack ?? error) };
  }
}

parentPort?.on('message', (task: ThreadTask) => {
  void read(task).then((answer) => parentPort?.postMessage(answer));
});
