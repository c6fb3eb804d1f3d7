/**
 * Loose types on writes, each shown on the real app: a number is a number (JSON) or a strict decimal (multipart),
 * the buyer flags are 0 or 1, a JSON `null` is no body, and text refuses control characters and bidi overrides.
 * Rules: contract/fields.ts.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import type { Report } from '../../contract/entities.ts';

describe.each(backends)('loose types ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  let association: number;
  let taskId: number;

  serveSuite(databaseUrl, (s) => {
    server = s;
  });
  beforeEach(async () => {
    p = await makePeople(server);
    taskId = await createTask(server, p.company);
    association = await addDriver(server, taskId, p.driver.id);
  });

  const fields = (extra: Record<string, string | number> = {}) => ({
    association_id: association,
    quantity: '24.5',
    total_loading_quantity: '25',
    loading_is_buyer: '1',
    unloading_is_buyer: '0',
    ...extra,
  });
  async function postReport(extra: Record<string, string | number> = {}) {
    const { payload, headers } = await encodeForm(reportForm(fields(extra)));
    return server.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, ...p.driver.auth, 'idempotency-key': randomUUID() } });
  }
  async function putForm(id: number, form: Record<string, string>) {
    const { payload, headers } = await encodeForm(reportForm(form));
    return server.app.inject({ method: 'PUT', url: `/api/reports/${id}`, payload, headers: { ...headers, ...p.driver.auth } });
  }
  /** A raw JSON text, so `null`, `""` and `-0` travel exactly as written. */
  const json = (method: 'POST' | 'PUT', url: string, user: SignedInUser, text: string) =>
    server.app.inject({ method, url: `/api${url}`, payload: text, headers: { ...user.auth, 'content-type': 'application/json' } });
  const detail = (res: { json: () => unknown }) => (res.json() as { detail: string }).detail;
  const stored = async (id: number) => server.db.kysely.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('PUT /reports/{id} (JSON): a quantity is a number or null — "", " ", "-0", "12" and hex are 400 naming the field; nothing changes', async () => {
    const report = (await postReport()).json() as Report;
    for (const [body, field] of [
      ['{"quantity": ""}', 'quantity'],
      ['{"quantity": "12"}', 'quantity'],
      ['{"quantity": "-0"}', 'quantity'],
      ['{"total_loading_quantity": " "}', 'total_loading_quantity'],
      ['{"total_unloading_quantity": "0x10"}', 'total_unloading_quantity'],
      ['{"quantity": true}', 'quantity'],
    ] as const) {
      const res = await json('PUT', `/reports/${report.id}`, p.driver, body);
      expect(res.statusCode, body).toBe(400);
      expect(detail(res), body).toMatch(new RegExp(`^${field}: [а-яё]`, 'i'));
    }
    expect(await stored(report.id)).toMatchObject({ quantity: 24.5, total_loading_quantity: 25, total_unloading_quantity: null });
    // A number, or null where clearing is allowed, still works.
    const ok = await json('PUT', `/reports/${report.id}`, p.driver, '{"quantity": 30, "total_loading_quantity": null}');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ quantity: 30, total_loading_quantity: null });
    // The staff's query-string write (PUT /tasks/{id}/drivers/{driverId}/, docs/product.md §4) reads a number as a form does.
    for (const query of ['quantity=0x10', 'transport_rate=%20', 'loading_quantity=-0', 'unloading_quantity=1e3']) {
      const res = await server.app.inject({ method: 'PUT', url: `/api/tasks/${taskId}/drivers/${p.driver.id}/?${query}`, headers: p.manager.auth });
      expect(res.statusCode, query).toBe(400);
      expect(detail(res), query).toMatch(new RegExp(`^${query.split('=')[0]}: `));
    }
  });

  it('PUT /reports/{id} (JSON): the buyer flags are 0 or 1, not true, false or ""', async () => {
    const report = (await postReport()).json() as Report;
    for (const body of ['{"loading_is_buyer": true}', '{"unloading_is_buyer": false}', '{"unloading_is_buyer": ""}', '{"loading_is_buyer": "1"}', '{"loading_is_buyer": 2}']) {
      const res = await json('PUT', `/reports/${report.id}`, p.driver, body);
      expect(res.statusCode, body).toBe(400);
      expect(detail(res), body).toMatch(/^(un)?loading_is_buyer: ожидается 0 или 1$/);
    }
    expect(await stored(report.id)).toMatchObject({ loading_is_buyer: 1, unloading_is_buyer: 0 });
    const ok = await json('PUT', `/reports/${report.id}`, p.driver, '{"unloading_is_buyer": 1}');
    expect([ok.statusCode, ok.json().unloading_is_buyer]).toEqual([200, 1]);
  });

  it('multipart POST and PUT /reports/: quantities and flags are strict decimals and 0/1 — "0x10", "1e1", "-0", " " are 400; empty text clears', async () => {
    for (const [extra, field] of [
      [{ quantity: '0x10' }, 'quantity'],
      [{ quantity: '1e1' }, 'quantity'],
      [{ quantity: '-0' }, 'quantity'],
      [{ quantity: ' ' }, 'quantity'],
      [{ quantity: '+5' }, 'quantity'],
      [{ quantity: '5.' }, 'quantity'],
      [{ total_loading_quantity: '0x10' }, 'total_loading_quantity'],
      [{ total_unloading_quantity: 'Infinity' }, 'total_unloading_quantity'],
      [{ loading_is_buyer: 'true' }, 'loading_is_buyer'],
      [{ unloading_is_buyer: '' }, 'unloading_is_buyer'],
    ] as const) {
      const res = await postReport(extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(detail(res), JSON.stringify(extra)).toMatch(new RegExp(`^${field}: [а-яё]`, 'i'));
    }
    expect(await server.db.kysely.selectFrom('reports').select('id').where('association_id', '=', association).execute()).toEqual([]);

    const report = (await postReport({ quantity: '0.5' })).json() as Report;
    expect(report.quantity).toBe(0.5);
    for (const form of [{ quantity: '0x10' }, { total_loading_quantity: ' ' }, { loading_is_buyer: 'false' }] as Record<string, string>[]) {
      const res = await putForm(report.id, form);
      expect(res.statusCode, JSON.stringify(form)).toBe(400);
      expect(detail(res)).toMatch(new RegExp(`^${Object.keys(form)[0]}: `));
    }
    expect(await stored(report.id)).toMatchObject({ quantity: 0.5, total_loading_quantity: 25, loading_is_buyer: 1 });
    // Multipart has no null: empty text is the app's way to clear a total (worker/report-form.ts).
    const cleared = await putForm(report.id, { total_loading_quantity: '', loading_is_buyer: '0', quantity: '16' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ quantity: 16, total_loading_quantity: null, loading_is_buyer: 0 });
  });

  it('a JSON null (or array, string, number) where an object is expected is a 400, never taken as {}', async () => {
    const report = (await postReport()).json() as Report;
    const announcement = await json('POST', '/announcements/', p.manager, JSON.stringify({ title: 'Ответьте', body: 'Кто выйдет в субботу?', requires_response: true }));
    expect(announcement.statusCode).toBe(201);
    const announcementId = (announcement.json() as { id: number }).id;
    const calls: [method: 'POST' | 'PUT', url: string, user: SignedInUser][] = [
      ['PUT', `/reports/${report.id}`, p.driver],
      ['POST', `/announcements/${announcementId}/responses`, p.driver],
      ['POST', '/announcements/', p.manager],
      ['POST', '/transfers/', p.manager],
      ['PUT', '/users/me/', p.driver],
      ['POST', '/tasks/', p.manager],
      ['POST', '/reports/daily_hours/', p.driver],
      ['POST', '/tasks/completed/export', p.manager],
    ];
    for (const [method, url, user] of calls) {
      for (const text of ['null', '[]', '"x"', '5']) {
        const res = await json(method, url, user, text);
        expect(res.statusCode, `${method} ${url} ${text}`).toBe(400);
        expect(detail(res), `${method} ${url} ${text}`).toBe('Тело запроса должно быть JSON-объектом');
      }
    }
    // No response was stored with text null.
    const responses = await server.db.kysely.selectFrom('announcement_responses').select('id').where('announcement_id', '=', announcementId).execute();
    expect(responses).toEqual([]);
    expect(await stored(report.id)).toMatchObject({ quantity: 24.5 });
  });

  it('text refuses NUL, other control characters and bidi overrides, naming the field; ordinary text with line breaks passes', async () => {
    const nul = '\u0000';
    const rlo = '\u202E';
    const announce = (body: object) => json('POST', '/announcements/', p.manager, JSON.stringify(body));
    for (const [body, field] of [
      [{ title: `Техосмотр${nul}`, body: 'Текст' }, 'title'],
      [{ title: `Техосмотр ${rlo}fdp.exe`, body: 'Текст' }, 'title'],
      [{ title: 'Техосмотр', body: `Текст\u0007` }, 'body'],
      [{ title: 'Техосмотр', body: `Текст\u2066изолят\u2069` }, 'body'],
    ] as const) {
      const res = await announce(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(detail(res), JSON.stringify(body)).toMatch(new RegExp(`^${field}: [а-яё]`, 'i'));
    }
    const ok = await announce({ title: 'Техосмотр 🚚', body: 'С 8:00 до 12:00.\nНа базе.\tВзять документы.', requires_response: true });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ title: 'Техосмотр 🚚', body: 'С 8:00 до 12:00.\nНа базе.\tВзять документы.' });
    const id = (ok.json() as { id: number }).id;

    const response = await json('POST', `/announcements/${id}/responses`, p.driver, JSON.stringify({ text: `Выйду${nul}` }));
    expect([response.statusCode, detail(response)]).toEqual([400, expect.stringMatching(/^text: /)]);

    const transfer = await json('POST', '/transfers/', p.manager, JSON.stringify({ task_id: taskId, to_company_id: p.otherCompany, comment: `Срочно${rlo}` }));
    expect([transfer.statusCode, detail(transfer)]).toEqual([400, expect.stringMatching(/^comment: /)]);
    const sent = await json('POST', '/transfers/', p.manager, JSON.stringify({ task_id: taskId, to_company_id: p.otherCompany, quantity: 1 }));
    expect(sent.statusCode).toBe(201);
    const declined = await json('POST', `/transfers/${(sent.json() as { id: number }).id}/decline`, p.otherManager, JSON.stringify({ reason: `Нет машин${nul}` }));
    expect([declined.statusCode, detail(declined)]).toEqual([400, expect.stringMatching(/^reason: /)]);

    const renamed = await json('PUT', '/users/me/', p.driver, JSON.stringify({ name: `Иван${rlo}вонавИ` }));
    expect([renamed.statusCode, detail(renamed)]).toEqual([400, expect.stringMatching(/^name: /)]);
    const company = await json('PUT', `/companies/${p.company}`, p.superAdmin, JSON.stringify({ name: `ООО${nul}Рейс` }));
    expect([company.statusCode, detail(company)]).toEqual([400, expect.stringMatching(/^name: /)]);
    const task = await json('POST', '/tasks/', p.manager, JSON.stringify({ date: '2026-11-20', cargo: `Щебень${nul}`, loading_place: 'Карьер', unloading_place: 'Склад', planned_quantity: 10 }));
    expect([task.statusCode, detail(task)]).toEqual([400, expect.stringMatching(/^cargo: /)]);
  });
});
