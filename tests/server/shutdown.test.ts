/**
 * Faults: the server stopped mid-upload. A SIGTERM lets the request in flight finish (the upload
 * completes, then the process exits 0); a SIGKILL (a crash) cuts it, leaves no report row and no stored photo,
 * and the client's retry with the same Idempotency-Key after the restart makes exactly one report. A real
 * server process (`node server/main.ts --demo`) on a SQLite file, a real socket and a slow multipart body.
 */
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answering, freePort, startProcess, stopProcess } from '../fixtures/cluster.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { jpegOfSize } from '../fixtures/images.ts';
import type { Page, Report, Task, TokenPair } from '../../contract/entities.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'reis-shutdown-'));
let port = 0;
let base = '';
let server: { child: ChildProcess; output: () => string } | null = null;
let token = '';

async function start(): Promise<void> {
  server = startProcess(process.execPath, ['--import', 'tsx', 'server/main.ts', '--demo'], {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG: '0',
    DIST_DIR: join(dataDir, 'no-build'),
  });
  await answering(`${base}/api/users/me/`, server.child, server.output);
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Sends the report's body in two halves with `between` run after the first: answers status and body, or the error. */
function slowUpload(association: number, key: string, between: () => Promise<void>): Promise<{ status: number; body: Report } | { error: string }> {
  return (async () => {
    const { payload, headers } = await encodeForm(
      reportForm({ association_id: association, quantity: '20', loading_is_buyer: '1', unloading_is_buyer: '0', completed_at: new Date().toISOString() }, [
        { data: jpegOfSize(400_000), type: 'image/jpeg', filename: 'big.jpg' },
      ]),
    );
    return new Promise((resolve) => {
      const req = http.request(`${base}/api/reports/`, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(payload.length), authorization: `Bearer ${token}`, 'idempotency-key': key },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Report }));
      });
      req.on('error', (error) => resolve({ error: error.message }));
      const half = Math.floor(payload.length / 2);
      // The first half is on the wire and in the server's hands (its handler is reading the body) before `between`.
      req.write(payload.subarray(0, half), () => {
        setTimeout(() => {
          void between().then(() => {
            if (!req.destroyed) req.end(payload.subarray(half));
          });
        }, 300);
      });
    });
  })();
}

const photoFiles = (): string[] => {
  const dir = join(dataDir, 'files', 'photos');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
};

async function signIn(): Promise<void> {
  const res = await fetch(`${base}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'driver@demo.local', password: 'demo12345', device_id: 'shutdown-test' }),
  });
  token = ((await res.json()) as TokenPair).access_token;
}

/** The demo driver's associations that take a report (not yet reported on). */
async function openAssociations(): Promise<number[]> {
  const page = await api<Page<Task>>('GET', '/tasks/assigned/');
  return page.items.flatMap((t) => t.driver_associations.filter((a) => a.report_count === 0).map((a) => a.id));
}

/** Each test stops the server and starts a new process (tsx compiles it again): on a loaded 2-core machine that alone has taken 10–20 s. */
const RESTART_BUDGET_MS = 60_000;

beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await start();
  await signIn();
}, 60_000);
afterAll(async () => {
  if (server) await stopProcess(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the server stopped during an upload', () => {
  it('SIGTERM: the upload in flight completes, the process exits 0, the retry after restart answers the same report', async () => {
    const [association] = await openAssociations();
    expect(association).toBeDefined();
    const key = randomUUID();
    const before = photoFiles().length;
    const running = server!.child;
    const result = await slowUpload(association!, key, async () => {
      running.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(result).toMatchObject({ status: 201 });
    expect(await exited(running)).toBe(0);

    await start();
    const retry = await fetch(`${base}/api/reports/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
      body: reportForm({ association_id: association!, quantity: '20', loading_is_buyer: '1', unloading_is_buyer: '0', completed_at: new Date().toISOString() }),
    });
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as Report).id).toBe((result as { body: Report }).body.id);
    expect(photoFiles().length - before).toBe(1);
  }, RESTART_BUDGET_MS);

  it('SIGKILL: the cut upload leaves no report and no file; the retry after restart makes exactly one', async () => {
    const [association] = await openAssociations();
    expect(association).toBeDefined();
    const key = randomUUID();
    const before = photoFiles();
    const running = server!.child;
    const result = await slowUpload(association!, key, async () => {
      running.kill('SIGKILL');
      await exited(running);
    });
    expect(result).toHaveProperty('error');

    await start();
    expect(await api<Report[]>('GET', `/reports/association/${association}`)).toEqual([]);
    expect(photoFiles()).toEqual(before);
    const retry = await slowUpload(association!, key, async () => undefined);
    expect(retry).toMatchObject({ status: 201 });
    expect(await api<Report[]>('GET', `/reports/association/${association}`)).toHaveLength(1);
    expect(photoFiles().filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(photoFiles().length - before.length).toBe(1);
  }, RESTART_BUDGET_MS);
});
