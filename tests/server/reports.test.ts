import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { encodeForm, reportForm, type FormFile } from '../fixtures/forms.ts';
import { JPEG_8x6, PNG_8x6 } from '../fixtures/images.ts';
import type { Page, Report, ReportPhoto, Task } from '../../contract/entities.ts';

describe.each(backends)('reports ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  let association: number;
  let taskId: number;

  // Listening: one test sends its upload over a real socket.
  serveSuite(
    databaseUrl,
    (s) => {
      server = s;
    },
    { listen: true },
  );
  beforeEach(async () => {
    p = await makePeople(server);
    taskId = await createTask(server, p.company);
    association = await addDriver(server, taskId, p.driver.id);
  });

  const photoFiles = () => {
    const dir = join(server.config.dataDir, 'files', 'photos');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const fields = (extra: Record<string, string | number> = {}) => ({
    association_id: association,
    quantity: '24.5',
    total_loading_quantity: '25',
    loading_is_buyer: '1',
    unloading_is_buyer: '0',
    completed_at: '2026-11-20T10:15:00.000Z',
    ...extra,
  });

  async function post(user: SignedInUser | undefined, form: FormData, key: string | null = randomUUID()) {
    const { payload, headers } = await encodeForm(form);
    return server.app.inject({
      method: 'POST',
      url: '/api/reports/',
      payload,
      headers: { ...headers, ...(user?.auth ?? {}), ...(key ? { 'idempotency-key': key } : {}) },
    });
  }
  const get = (url: string, user?: SignedInUser) => server.app.inject({ method: 'GET', url: `/api${url}`, headers: user?.auth ?? {} });
  const jpeg = (filename = 'camera.jpg'): FormFile => ({ data: JPEG_8x6, filename });

  it("stores a report with photos; the last trip's report completes the association and takes it out of /tasks/assigned/", async () => {
    const before = photoFiles().length;
    const res = await post(p.driver, reportForm(fields({ final: '1' }), [jpeg(), { data: PNG_8x6, type: 'image/png', filename: 'a.png' }]));
    expect(res.statusCode).toBe(201);
    const report = res.json() as Report;
    expect(report).toMatchObject({
      association_id: association,
      driver_id: p.driver.id,
      quantity: 24.5,
      total_loading_quantity: 25,
      total_unloading_quantity: null,
      loading_is_buyer: 1,
      unloading_is_buyer: 0,
      completed_at: '2026-11-20T10:15:00.000Z',
    });
    expect(report.photos.map((ph) => [ph.mime, ph.width, ph.height])).toEqual([
      ['image/jpeg', 8, 6],
      ['image/png', 8, 6],
    ]);
    expect(report.photos[0]?.url).toBe(`/api/reports/photos/${report.photos[0]?.id}`);
    expect(photoFiles().length - before).toBe(2);

    const assoc = await server.db.kysely.selectFrom('task_drivers').selectAll().where('id', '=', association).executeTakeFirstOrThrow();
    expect(assoc).toMatchObject({ status: 'completed', quantity: 24.5, loading_quantity: 25 });
    const assigned = (await get('/tasks/assigned/', p.driver)).json() as Page<Task>;
    expect(assigned.items.flatMap((t) => t.driver_associations.map((a) => a.id))).not.toContain(association);
    const completed = (await get('/tasks/driver/completed', p.driver)).json() as Page<Task>;
    expect(completed.items.map((t) => t.id)).toContain(taskId);

    const file = await get(report.photos[0]?.url.replace('/api', '') as string, p.driver);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(file.rawPayload, JPEG_8x6)).toBe(0);
  });

  it('GET /reports/{id} shows a report with its driver, task and association to its driver and the company staff only', async () => {
    const created = (await post(p.driver, reportForm(fields(), [jpeg(), jpeg('b.jpg')]))).json() as Report;
    for (const user of [p.driver, p.manager, p.admin, p.superAdmin]) {
      const res = await get(`/reports/${created.id}`, user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: created.id,
        driver_name: 'Иван Петров',
        task: { id: taskId, company_id: p.company },
        // One trip reported, not the last: the driver's part goes on.
        association: { id: association, status: 'in_progress', quantity: 24.5 },
      });
      expect(res.json().photos).toHaveLength(2);
    }
    expect((await get(`/reports/${created.id}`, p.otherManager)).statusCode).toBe(404);
    expect((await get(`/reports/${created.id}`, p.driver2)).statusCode).toBe(404);
    expect((await get(`/reports/${created.id}`)).statusCode).toBe(401);
    expect((await get('/reports/999999', p.manager)).statusCode).toBe(404);
    expect((await get('/reports/abc', p.manager)).statusCode).toBe(400);
    const single = (await get(`/reports/${created.id}/photos`, p.manager)).json();
    const all = (await get(`/reports/${created.id}/photos?mode=all`, p.manager)).json();
    expect(single.photos).toHaveLength(1);
    expect(all.photos.map((ph: { id: number }) => ph.id)).toEqual(created.photos.map((ph) => ph.id));
    const bad = await get(`/reports/${created.id}/photos?mode=every`, p.manager);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/single или all/);
  });

  it('answers the stored report for the same Idempotency-Key instead of making a second one', async () => {
    const key = randomUUID();
    const before = photoFiles().length;
    const first = await post(p.driver, reportForm(fields(), [jpeg()]), key);
    const second = await post(p.driver, reportForm(fields(), [jpeg()]), key.toUpperCase());
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json().id).toBe(first.json().id);
    const rows = await server.db.kysely.selectFrom('reports').select('id').where('association_id', '=', association).execute();
    expect(rows).toHaveLength(1);
    expect(photoFiles().length - before).toBe(1);

    const otherTask = await createTask(server, p.company);
    const other = await addDriver(server, otherTask, p.driver.id);
    const reused = await post(p.driver, reportForm(fields({ association_id: other })), key);
    expect(reused.statusCode).toBe(422);
  });

  it("answers a retried last trip's report though its part is finished now, and its key on a part that is gone 422", async () => {
    const key = randomUUID();
    const first = await post(p.driver, reportForm(fields({ final: '1' }), [jpeg()]), key);
    expect(first.statusCode).toBe(201);
    expect(first.json().flags).toEqual(expect.any(Array));
    // The outbox sends it again (the answer was lost): the stored report, not «Задача уже завершена».
    const again = await post(p.driver, reportForm(fields({ final: '1' }), [jpeg()]), key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: first.json().id, closed: false, photos: [{ id: first.json().photos[0].id }] });
    // A new key on the finished part is refused.
    expect((await post(p.driver, reportForm(fields()))).statusCode).toBe(409);
    // The same key on a part that does not exist: the key is taken, whatever the part.
    expect((await post(p.driver, reportForm(fields({ association_id: 999999 })), key)).statusCode).toBe(422);
    // The history has the report once, created.
    const history = await server.db.kysely.selectFrom('audit_log').select(['action']).where('entity', '=', 'report').where('entity_id', '=', first.json().id).execute();
    expect(history.map((h) => h.action)).toEqual(['create']);
  });

  it('makes exactly one report and one set of photo files when the same key arrives five times at once', async () => {
    const key = randomUUID();
    const before = photoFiles().length;
    const send = () =>
      fetch(`${server.url}/api/reports/`, {
        method: 'POST',
        headers: { ...p.driver.auth, 'idempotency-key': key },
        body: reportForm(fields(), [jpeg('1.jpg'), jpeg('2.jpg'), { data: PNG_8x6, type: 'image/png', filename: '3.png' }]),
      });
    const responses = await Promise.all(Array.from({ length: 5 }, send));
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as Report[];
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    const reports = await server.db.kysely.selectFrom('reports').select('id').where('idempotency_key', '=', key).execute();
    expect(reports).toHaveLength(1);
    const photos = await server.db.kysely.selectFrom('report_photos').select('storage_key').where('report_id', '=', reports[0]!.id).execute();
    expect(photos).toHaveLength(3);
    expect(photoFiles().length - before).toBe(3);
    for (const { storage_key } of photos) expect(photoFiles()).toContain(storage_key.replace('photos/', ''));
  });

  it('requires an Idempotency-Key that is a UUID', async () => {
    expect((await post(p.driver, reportForm(fields()), null)).statusCode).toBe(400);
    const bad = await post(p.driver, reportForm(fields()), 'not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^Idempotency-Key:/);
  });

  it("refuses a report on another driver's association and hides its reports and photos", async () => {
    const mine = (await post(p.driver, reportForm(fields(), [jpeg()]))).json() as Report;
    const theirs = await post(p.driver2, reportForm(fields()));
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().detail).toBe('Задание водителя не найдено');
    expect((await post(p.driver, reportForm(fields({ association_id: 999999 })))).statusCode).toBe(404);

    const photoUrl = (mine.photos[0] as ReportPhoto).url.replace('/api', '');
    for (const url of [`/reports/association/${association}`, `/reports/${mine.id}/photos?mode=all`, photoUrl]) {
      expect((await get(url, p.driver2)).statusCode, url).toBe(404);
      expect((await get(url, p.otherManager)).statusCode, url).toBe(404);
      expect((await get(url, p.manager)).statusCode, url).toBe(200);
      expect((await get(url, p.superAdmin)).statusCode, url).toBe(200);
    }
    const list = (await get(`/reports/association/${association}`, p.driver)).json() as Report[];
    expect(list.map((r) => r.id)).toEqual([mine.id]);
    expect(list[0]?.photos).toHaveLength(1);
    const edit = await server.app.inject({ method: 'PUT', url: `/api/reports/${mine.id}`, headers: p.driver2.auth, payload: { quantity: 1 } });
    expect(edit.statusCode).toBe(404);
    const del = await server.app.inject({ method: 'DELETE', url: `/api/reports/${mine.id}`, headers: p.driver2.auth });
    expect(del.statusCode).toBe(404);
  });

  it('refuses a report on a cancelled association with 409', async () => {
    await server.db.kysely.updateTable('task_drivers').set({ status: 'cancelled' }).where('id', '=', association).execute();
    const res = await post(p.driver, reportForm(fields()));
    expect(res.statusCode).toBe(409);
  });

  it('enforces upload limits and content checks, leaving no files behind', async () => {
    const before = photoFiles().length;
    const big = await post(p.driver, reportForm(fields(), [{ data: Buffer.concat([JPEG_8x6, Buffer.alloc(10 * 1024 * 1024)]) }]));
    expect(big.statusCode).toBe(413);
    expect(big.json().detail).toBe('Фото больше 10 МБ');

    const many = await post(p.driver, reportForm(fields(), Array.from({ length: 13 }, () => jpeg())));
    expect(many.statusCode).toBe(413);
    expect(many.json().detail).toBe('В отчёте не больше 12 фото');

    const heavy = Array.from({ length: 5 }, () => ({ data: Buffer.concat([JPEG_8x6, Buffer.alloc(9 * 1024 * 1024)]) }));
    const total = await post(p.driver, reportForm(fields(), heavy));
    expect(total.statusCode).toBe(413);
    expect(total.json().detail).toBe('Фото отчёта вместе больше 40 МБ');

    const text = await post(p.driver, reportForm(fields(), [jpeg(), { data: Buffer.from('просто текст, не фото'), filename: 'note.jpg' }]));
    expect(text.statusCode).toBe(415);
    expect(text.json().detail).toContain('note.jpg');
    // A 10 000-character name, with a right-to-left override, is quoted cut and clean.
    const long = await post(p.driver, reportForm(fields(), [{ data: Buffer.from('не фото'), filename: `\u202e${'я'.repeat(10_000)}.jpg` }]));
    expect(long.statusCode).toBe(415);
    expect(long.json().detail.length).toBeLessThan(200);
    expect(long.json().detail).not.toContain('\u202e');

    const wrongField = await post(p.driver, reportForm(fields(), [{ name: 'document', data: JPEG_8x6 }]));
    expect(wrongField.statusCode).toBe(400);

    expect(photoFiles().length).toBe(before);
    expect(await server.db.kysely.selectFrom('reports').select('id').where('association_id', '=', association).execute()).toHaveLength(0);
  });

  it('decodes every photo: a valid header over garbage, or a header claiming 20 000 × 20 000, is refused; files are served as images only', async () => {
    const garbage = Buffer.concat([PNG_8x6.subarray(0, 33), Buffer.alloc(400, 7)]);
    const broken = await post(p.driver, reportForm(fields(), [{ data: garbage, type: 'image/png', filename: 'broken.png' }]));
    expect(broken.statusCode).toBe(415);
    expect(broken.json().detail).toContain('broken.png');

    // The IHDR's width and height (bytes 16–23) say 20 000 × 20 000: refused before any decoding.
    const huge = Buffer.from(PNG_8x6);
    huge.writeUInt32BE(20_000, 16);
    huge.writeUInt32BE(20_000, 20);
    const bomb = await post(p.driver, reportForm(fields(), [{ data: huge, type: 'image/png', filename: 'bomb.png' }]));
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json().detail).toBe('Фото «bomb.png» больше 50 мегапикселей: уменьшите его');

    // A JPEG with HTML after it still decodes; it is served so that no browser runs it as a page.
    const polyglot = Buffer.concat([JPEG_8x6, Buffer.from('<html><script>alert(1)</script></html>')]);
    const stored = await post(p.driver, reportForm(fields(), [{ data: polyglot, filename: 'x.html' }]));
    expect(stored.statusCode).toBe(201);
    const url = (stored.json() as Report).photos[0]?.url as string;
    const file = await server.app.inject({ method: 'GET', url, headers: p.driver.auth });
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toContain('sandbox');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="photo-\d+\.jpg"$/);
    // Every answer carries the security headers (helmet).
    const page = await server.app.inject({ method: 'GET', url: '/api/auth/roles/' });
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers 400 for a body that is not multipart, a broken multipart body and a bad field', async () => {
    const headers = { ...p.driver.auth, 'idempotency-key': randomUUID() };
    const json = await server.app.inject({ method: 'POST', url: '/api/reports/', headers, payload: fields() });
    expect(json.statusCode).toBe(400);
    expect(json.json().detail).toBe('Ожидается multipart/form-data');

    const empty = await server.app.inject({ method: 'POST', url: '/api/reports/', headers });
    expect(empty.statusCode).toBe(400);

    const { payload, headers: formHeaders } = await encodeForm(reportForm(fields(), [jpeg()]));
    const truncated = await server.app.inject({
      method: 'POST',
      url: '/api/reports/',
      headers: { ...headers, ...formHeaders },
      payload: payload.subarray(0, payload.length - 60),
    });
    expect(truncated.statusCode).toBe(400);
    const noBoundary = await server.app.inject({
      method: 'POST',
      url: '/api/reports/',
      headers: { ...headers, 'content-type': 'multipart/form-data' },
      payload: 'garbage',
    });
    expect(noBoundary.statusCode).toBe(400);

    const badField = await post(p.driver, reportForm(fields({ association_id: 'abc' })));
    expect(badField.statusCode).toBe(400);
    expect(badField.json().detail).toMatch(/^association_id:/);
    const badQuantity = await post(p.driver, reportForm(fields({ quantity: 'много' })));
    expect(badQuantity.json().detail).toMatch(/^quantity:/);
  });

  it('edits a report by multipart or JSON, removes a photo, and deletes the report', async () => {
    const report = (await post(p.driver, reportForm(fields(), [jpeg()]))).json() as Report;
    const before = photoFiles().length;
    const { payload, headers } = await encodeForm(reportForm({ quantity: '30', total_unloading_quantity: '29', unloading_is_buyer: '1' }, [{ data: PNG_8x6, type: 'image/png' }]));
    const edited = await server.app.inject({ method: 'PUT', url: `/api/reports/${report.id}`, headers: { ...headers, ...p.driver.auth }, payload });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ quantity: 30, total_unloading_quantity: 29, total_loading_quantity: 25, unloading_is_buyer: 1 });
    expect((edited.json() as Report).photos).toHaveLength(2);
    expect(photoFiles().length - before).toBe(1);

    const json = await server.app.inject({ method: 'PUT', url: `/api/reports/${report.id}`, headers: p.manager.auth, payload: { quantity: 31 } });
    expect(json.statusCode).toBe(200);
    const assoc = await server.db.kysely.selectFrom('task_drivers').selectAll().where('id', '=', association).executeTakeFirstOrThrow();
    expect(assoc).toMatchObject({ quantity: 31, unloading_quantity: 29, status: 'in_progress' });

    const single = (await get(`/reports/${report.id}/photos`, p.driver)).json() as { photos: ReportPhoto[] };
    expect(single.photos).toHaveLength(1);
    const all = (await get(`/reports/${report.id}/photos?mode=all`, p.driver)).json() as { photos: ReportPhoto[] };
    expect(all.photos).toHaveLength(2);
    expect((await get(`/reports/${report.id}/photos?mode=some`, p.driver)).statusCode).toBe(400);

    const del = (query: string) =>
      server.app.inject({ method: 'DELETE', url: `/api/reports/${report.id}/photo${query}`, headers: p.driver.auth });
    expect((await del('')).statusCode).toBe(400);
    expect((await del('?photo_id=999999')).statusCode).toBe(404);
    expect((await del(`?photo_id=${all.photos[0]?.id}`)).statusCode).toBe(204);
    expect(photoFiles().length - before).toBe(0);
    expect((await get(all.photos[0]?.url.replace('/api', '') as string, p.driver)).statusCode).toBe(404);

    const gone = await server.app.inject({ method: 'DELETE', url: `/api/reports/${report.id}`, headers: p.driver.auth });
    expect(gone.statusCode).toBe(204);
    expect(photoFiles().length - before).toBe(-1);
    const back = await server.db.kysely.selectFrom('task_drivers').select('status').where('id', '=', association).executeTakeFirstOrThrow();
    // Started and still going: a deleted trip does not undo the start.
    expect(back.status).toBe('in_progress');
    const assigned = (await get('/tasks/assigned/', p.driver)).json() as Page<Task>;
    expect(assigned.items.map((t) => t.id)).toContain(taskId);
    expect((await get(`/reports/association/${association}`, p.driver)).json()).toEqual([]);
  });

  it('a multipart edit reads empty text as null and leaves out-of-form fields as they are (the app sends only changes)', async () => {
    const report = (await post(p.driver, reportForm(fields()))).json() as Report;
    const count = async () => ((await get(`/reports/association/${association}`, p.driver)).json() as Report[]).length;
    const before = await count();
    const { payload, headers } = await encodeForm(reportForm({ total_loading_quantity: '', loading_is_buyer: '0' }));
    const edited = await server.app.inject({ method: 'PUT', url: `/api/reports/${report.id}`, headers: { ...headers, ...p.driver.auth }, payload });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: report.id, quantity: 24.5, total_loading_quantity: null, loading_is_buyer: 0 });
    expect(await count()).toBe(before);
  });

  it('upserts daily hours per driver and date', async () => {
    const put = (user: SignedInUser | undefined, payload: object) =>
      server.app.inject({ method: 'POST', url: '/api/reports/daily_hours/', headers: user?.auth ?? {}, payload });
    const first = await put(p.driver, { date: '2026-11-20', hours: 8 });
    expect(first.statusCode).toBe(200);
    const second = await put(p.driver, { date: '2026-11-20', hours: 9.5 });
    expect(second.json()).toMatchObject({ id: first.json().id, date: '2026-11-20', hours: 9.5, driver_id: p.driver.id });
    const rows = await server.db.kysely.selectFrom('daily_hours').selectAll().where('driver_id', '=', p.driver.id).execute();
    expect(rows).toHaveLength(1);
    await put(p.driver, { date: '2026-11-21', hours: 7 });
    await put(p.driver2, { date: '2026-11-21', hours: 5 });
    const list = await get('/reports/daily_hours/?start_date=2026-11-21', p.driver);
    expect(list.json()).toEqual([{ id: expect.any(Number), driver_id: p.driver.id, date: '2026-11-21', hours: 7 }]);
    for (const bad of [{ date: '2026-11-20', hours: 0 }, { date: '2026-11-20', hours: 24.5 }, { date: '20.11.2026', hours: 8 }, { hours: 8 }]) {
      const res = await put(p.driver, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await put(p.manager, { date: '2026-11-20', hours: 8 })).statusCode).toBe(403);
    expect((await put(undefined, { date: '2026-11-20', hours: 8 })).statusCode).toBe(401);
  });

  it('answers 401 without a token and 403 for staff on the driver-only calls', async () => {
    const report = (await post(p.driver, reportForm(fields(), [jpeg()]))).json() as Report;
    const calls: ['GET' | 'PUT' | 'DELETE', string][] = [
      ['PUT', `/reports/${report.id}`],
      ['DELETE', `/reports/${report.id}/photo?photo_id=${report.photos[0]?.id}`],
      ['GET', `/reports/${report.id}/photos`],
      ['GET', `/reports/photos/${report.photos[0]?.id}`],
      ['GET', `/reports/association/${association}`],
      ['DELETE', `/reports/${report.id}`],
    ];
    for (const [method, url] of calls) {
      const res = await server.app.inject({ method, url: `/api${url}` });
      expect(res.statusCode, url).toBe(401);
    }
    expect((await post(undefined, reportForm(fields()))).statusCode).toBe(401);
    expect((await post(p.manager, reportForm(fields()))).statusCode).toBe(403);
    expect((await post(p.superAdmin, reportForm(fields()))).statusCode).toBe(403);
  });
});
