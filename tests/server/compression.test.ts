/**
 * Nothing uncompressed on the wire: built files go as their .br/.gz copies (made by the build's own
 * precompress step, scripts/precompress.ts) with Content-Encoding and Vary; JSON answers of 1 kB and more are
 * compressed per request (br, else gzip); the change feed, photos and xlsx downloads never are.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from '../fixtures/server.ts';
import { makeCompany, makePeople, type People } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { distinctPhoto } from '../fixtures/images.ts';
import { openSse, type SseReader } from '../fixtures/sse.ts';
import { precompressDir } from '../../scripts/precompress.ts';
import { negotiate } from '../../server/compress.ts';

/** A fake build: a page, a hashed script, a stylesheet, a service worker, precompressed as the build does. */
const INDEX = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Рейс</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(20)}</head><body><div id="root"></div></body></html>`;
const SCRIPT = Array.from({ length: 400 }, (_, i) => `export function f${i}(a){return a.map((x)=>x*${i}+"задача ${i}");}`).join('\n');
const STYLE = Array.from({ length: 200 }, (_, i) => `.card-${i}{padding:${i % 9}px;color:#1f4e79}`).join('\n');
const SW = `self.addEventListener('install',()=>self.skipWaiting());${'/* precache */'.repeat(60)}`;

function makeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reis-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'index-AbC123.css'), STYLE);
  writeFileSync(join(dir, 'sw.js'), SW);
  return dir;
}

describe('Accept-Encoding negotiation', () => {
  it('prefers br, then gzip, honours q=0 and *, and falls back to identity', () => {
    expect(negotiate('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiate('gzip')).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiate('*')).toBe('br');
    expect(negotiate('identity')).toBeNull();
    expect(negotiate('br;q=0, gzip;q=0')).toBeNull();
    expect(negotiate(undefined)).toBeNull();
  });
});

describe.each(backends)('compression on the wire ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let distDir: string;
  let p: People;
  const open: SseReader[] = [];

  beforeAll(async () => {
    distDir = makeDist();
    await precompressDir(distDir);
    server = await startTestServer({ databaseUrl, listen: true, config: { distDir, eventsHeartbeatMs: 60_000 } });
    p = await makePeople(server);
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  afterAll(async () => {
    await server.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });
  const varies = (headers: Record<string, unknown>) =>
    String(headers.vary ?? '')
      .toLowerCase()
      .split(',')
      .map((t) => t.trim())
      .includes('accept-encoding');

  it('made .br and .gz copies beside the built files, which decode to the same bytes', () => {
    for (const file of ['index.html', 'assets/index-AbC123.js', 'assets/index-AbC123.css', 'sw.js']) {
      const original = readFileSync(join(distDir, file));
      expect(brotliDecompressSync(readFileSync(join(distDir, `${file}.br`))).equals(original), file).toBe(true);
      expect(gunzipSync(readFileSync(join(distDir, `${file}.gz`))).equals(original), file).toBe(true);
    }
  });

  it('sends a script as br, gzip or itself, as the browser asks, with Vary and its cache headers', async () => {
    const original = readFileSync(join(distDir, 'assets', 'index-AbC123.js'));
    const br = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.rawPayload.length).toBeLessThan(original.length / 3);
    expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);

    const gz = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(original)).toBe(true);

    const plain = await get('/assets/index-AbC123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
    const none = await get('/assets/index-AbC123.js');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.rawPayload.equals(original)).toBe(true);

    for (const res of [br, gz, plain, none]) {
      expect(varies(res.headers)).toBe(true);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('sends the stylesheet, the service worker and the SPA fallback compressed too, never cached stale', async () => {
    const css = await get('/assets/index-AbC123.css', { 'accept-encoding': 'br' });
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/text\/css/);
    expect(brotliDecompressSync(css.rawPayload).toString()).toBe(STYLE);

    const sw = await get('/sw.js', { 'accept-encoding': 'br' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-encoding']).toBe('br');
    expect(sw.headers['content-type']).toMatch(/javascript/);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(sw.rawPayload).toString()).toBe(SW);

    for (const url of ['/', '/login', '/tasks/manage']) {
      const page = await get(url, { 'accept-encoding': 'gzip, br' });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toMatch(/text\/html/);
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(varies(page.headers), url).toBe(true);
      expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(INDEX);
      const plainPage = await get(url);
      expect(plainPage.headers['content-encoding'], url).toBeUndefined();
      expect(plainPage.body, url).toBe(INDEX);
    }
    // A missing asset stays a 404, not the page in br.
    expect((await get('/assets/nope-123.js', { 'accept-encoding': 'br' })).statusCode).toBe(404);
  });

  it('compresses a large JSON answer when asked, br before gzip, and leaves it alone when not', async () => {
    for (let i = 0; i < 40; i++) await makeCompany(server, `Компания для сжатия ${i} ${randomUUID()}`);
    const plain = await get('/api/companies/');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(2048);
    expect(varies(plain.headers)).toBe(true);
    const companies = JSON.parse(plain.body) as unknown[];

    const br = await get('/api/companies/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/application\/json/);
    expect(varies(br.headers)).toBe(true);
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(companies);

    const gz = await get('/api/companies/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(companies);

    // Over a real socket, as a browser gets it: fetch decodes it.
    const fetched = await fetch(`${server.url}/api/companies/`, { headers: { 'accept-encoding': 'br' } });
    expect(fetched.headers.get('content-encoding')).toBe('br');
    expect(await fetched.json()).toEqual(companies);
  });

  it('does not compress a tiny JSON answer', async () => {
    const res = await get('/api/users/me/', { ...p.driver.auth, 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ id: p.driver.id });
  });

  it('never compresses the change feed, which still tells a change at once', async () => {
    const taskId = await createTask(server, p.company, { status: 'in_progress' });
    await addDriver(server, taskId, p.driver.id);
    const feed = await openSse(`${server.url}/api/events/`, { ...p.driver.auth, 'accept-encoding': 'br, gzip' });
    open.push(feed);
    expect(feed.status).toBe(200);
    expect(feed.headers['content-type']).toMatch(/text\/event-stream/);
    expect(feed.headers['content-encoding']).toBeUndefined();
    await feed.next((e) => e.event === 'ready');
    const started = performance.now();
    const res = await fetch(`${server.url}/api/tasks/${taskId}/`, {
      method: 'PUT',
      headers: { ...p.manager.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ cargo: 'Песок мытый' }),
    });
    expect(res.status).toBe(200);
    const event = await feed.next((e) => e.event === 'message', 2_000);
    expect(JSON.parse(event.data)).toEqual({ path: `/tasks/${taskId}/`, method: 'PUT' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('sends photos and xlsx files as they are: compressed formats already', async () => {
    const taskId = await createTask(server, p.company);
    const association = await addDriver(server, taskId, p.driver.id);
    const photo = await distinctPhoto(7);
    const form = reportForm(
      {
        association_id: association,
        quantity: '24.5',
        total_loading_quantity: '25',
        loading_is_buyer: '1',
        unloading_is_buyer: '0',
        completed_at: '2026-11-20T10:15:00.000Z',
      },
      [{ data: photo, filename: 'camera.jpg' }],
    );
    const { payload, headers } = await encodeForm(form);
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/reports/',
      payload,
      headers: { ...headers, ...p.driver.auth, 'idempotency-key': randomUUID() },
    });
    expect(created.statusCode).toBe(201);
    const url = (created.json() as { photos: { url: string }[] }).photos[0]!.url;
    const file = await get(url, { ...p.driver.auth, 'accept-encoding': 'br, gzip' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['content-encoding']).toBeUndefined();
    expect(file.headers['cache-control']).toBe('private, max-age=86400, immutable');
    expect(file.rawPayload.length).toBeGreaterThan(1024);
    expect(file.rawPayload.subarray(0, 3).toString('hex')).toBe('ffd8ff');

    const xlsx = await get('/api/tasks/import/template', { ...p.manager.auth, 'accept-encoding': 'br, gzip' });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toMatch(/spreadsheetml/);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('without precompressed copies', () => {
  it('sends a built file as itself when no .br/.gz is beside it', async () => {
    const distDir = makeDist();
    const server = await startTestServer({ listen: false, config: { distDir } });
    try {
      const res = await server.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(SCRIPT);
    } finally {
      await server.close();
      rmSync(distDir, { recursive: true, force: true });
    }
  });
});
