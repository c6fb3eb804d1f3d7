/**
 * A task import's worker thread (started by import-runner.ts through import-worker.mjs). All the work on an
 * upload's bytes happens here, none on the request thread: `open` takes the request's raw JSON body — parsed,
 * checked by the call's schema (the same 400 details as any call), the file decoded from base64 and hashed (SHA-256)
 * — and answers the file's name, company and hash; the request thread then checks the company and the hash and
 * sends `read` with the company's drivers (or `drop`). `read` runs the guards and exceljs (import-xlsx.ts) on the
 * file kept from `open` (or one handed with it) and posts the rows back, or the reason the file is refused.
 * One file at a time; the runner ends the thread when it has been idle a while, and all it allocated goes with it.
 */
import { createHash } from 'node:crypto';
import { isMainThread, parentPort, threadId } from 'node:worker_threads';
import { importFileSchema } from '../../contract/calls/tasks.ts';
import { HttpError, parse } from '../errors.ts';
import { ImportFileError, parseTaskImport, type ImportDriver, type ImportRow } from './import-xlsx.ts';

export type ThreadTask =
  | { kind: 'open'; body: Uint8Array }
  | { kind: 'read'; drivers: ImportDriver[]; file?: Uint8Array }
  | { kind: 'drop' };

/** What the request's body says besides the file. */
export interface OpenedBody {
  fileName: string;
  companyId: number | undefined;
  /** The file's SHA-256 (hex): the same file is not imported twice. */
  hash: string;
  /** «Создать недостающие». */
  createMissing: boolean;
}

export type ThreadAnswer =
  | ({ kind: 'opened' } & OpenedBody)
  | { kind: 'bad'; detail: string }
  | { kind: 'rows'; rows: ImportRow[]; threadId: number; isMainThread: boolean }
  | { kind: 'file'; message: string; cause: string | null }
  | { kind: 'error'; message: string };

export const INVALID_JSON = 'Тело запроса — некорректный JSON';

/** The file of the last `open`, kept for its `read`. */
let held: Buffer | null = null;

function open(body: Uint8Array): ThreadAnswer {
  held = null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return { kind: 'bad', detail: INVALID_JSON };
  }
  try {
    // A strict object: `__proto__` or `constructor` keys are refused as unknown fields, never merged.
    const { file_name, file, company_id, create_missing } = parse(importFileSchema, json);
    held = Buffer.from(file, 'base64');
    return { kind: 'opened', fileName: file_name, companyId: company_id, hash: createHash('sha256').update(held).digest('hex'), createMissing: create_missing === true };
  } catch (error) {
    if (error instanceof HttpError) return { kind: 'bad', detail: error.detail };
    throw error;
  }
}

async function read({ file, drivers }: { file?: Uint8Array; drivers: ImportDriver[] }): Promise<ThreadAnswer> {
  const bytes = file ? Buffer.from(file.buffer, file.byteOffset, file.byteLength) : held;
  held = null;
  if (!bytes) return { kind: 'error', message: 'no file to read: `read` without a file or an `open` before it' };
  try {
    const rows = await parseTaskImport(bytes, { drivers });
    return { kind: 'rows', rows, threadId, isMainThread };
  } catch (error) {
    if (error instanceof ImportFileError) return { kind: 'file', message: error.message, cause: error.cause ? String(error.cause) : null };
    return { kind: 'error', message: String((error as Error).stack ?? error) };
  }
}

async function answer(task: ThreadTask): Promise<ThreadAnswer | null> {
  try {
    if (task.kind === 'open') return open(task.body);
    if (task.kind === 'read') return await read(task);
    held = null;
    return null;
  } catch (error) {
    return { kind: 'error', message: String((error as Error).stack ?? error) };
  }
}

parentPort?.on('message', (task: ThreadTask) => {
  void answer(task).then((message) => message && parentPort?.postMessage(message));
});
