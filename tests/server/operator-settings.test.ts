/**
 * The operator of a company as its setting (contract/calls/operator.ts, server/documents/operator-settings.ts;
 * docs/documents.md «The operator of a company»): saved by the company's admin and read back without its secrets;
 * bad input refused in Russian naming the field, nothing saved; another company untouched; two companies served by
 * one job, each with its own box and token, against the fake Диадок of tests/fixtures/diadoc-fake.ts; the
 * environment's company as the fallback and a saved setting winning over it; leaving a box while titles sent
 * through it wait refused (409 naming how many), allowed once they are answered. On both databases.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { carrierCards, SHIPPER_EDO, stampedTrip, type CarrierCards } from '../fixtures/papers.ts';
import { FakeDiadoc } from '../fixtures/diadoc-fake.ts';
import { buildApp } from '../../server/app.ts';
import type { DiadocSettings } from '../../server/config.ts';
import type { Fetch } from '../../server/documents/diadoc.ts';
import { startOperatorJob } from '../../server/documents/operator-job.ts';
import type { OperatorSettings } from '../../contract/calls/operator.ts';
import type { DocumentItem, DocumentPage } from '../../contract/documents.ts';

const DAY = '2026-11-27';
const BOX_A = '8d3f1c2a-5b6e-4f70-9a81-2c3d4e5f6a7b';
const BOX_B = '09ae254c-5cd0-4082-84de-7ccb46d86f82';
const API = 'https://diadoc-api.kontur.ru';

describe.each(backends)('the operator of a company ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  const co = {} as Record<'a' | 'b', { id: number; cards: CarrierCards; admin: SignedInUser; manager: SignedInUser }>;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    for (const [k, suffix, plate] of [
      ['a', ' А', ['А123ВС77', 'А123ВС 77']],
      ['b', ' Б', ['В456ОР77', 'В456ОР 77']],
    ] as const) {
      const id = await makeCompany(s, `ТК «Рейс»${suffix} ${Date.now()}`);
      co[k] = {
        id,
        cards: await carrierCards(s, id, { shipperEdo: SHIPPER_EDO, carrierEdo: true, plate: [...plate], placeSuffix: suffix }),
        admin: await withAccessToken(s, await makeUser(s, 'admin', id)),
        manager: await withAccessToken(s, await makeUser(s, 'manager', id)),
      };
    }
  });

  const settingsOf = (k: 'a' | 'b', by = co[k].admin) => call<OperatorSettings & { detail: string }>(s, 'GET', `/api/companies/${co[k].id}/operator`, { token: by.token });
  const save = (k: 'a' | 'b', body: unknown, by = co[k].admin) => call<OperatorSettings & { detail: string }>(s, 'PUT', `/api/companies/${co[k].id}/operator`, { token: by.token, body });
  const stored = (k: 'a' | 'b') => s.db.kysely.selectFrom('company_operator_settings').selectAll().where('company_id', '=', co[k].id).executeTakeFirst();
  async function readyTitle(k: 'a' | 'b', driver: string): Promise<DocumentItem & { key: string }> {
    const trip = await stampedTrip(s, co[k].cards, DAY, driver);
    const post = (url: string) => call<DocumentItem>(s, 'POST', url, { token: co[k].manager.token, body: url.endsWith('/documents/') ? { report_id: trip.trip, title: 't1' } : undefined });
    const draft = await post('/api/documents/');
    const ready = await post(`/api/documents/${draft.body.id}/ready`);
    expect(ready.body.state).toBe('ready');
    const row = await s.db.kysely.selectFrom('etrn_documents').select('idempotency_key').where('id', '=', ready.body.id).executeTakeFirstOrThrow();
    return { ...ready.body, key: row.idempotency_key as string };
  }
  const state = async (id: number) => (await s.db.kysely.selectFrom('etrn_documents').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

  it('saved by the admin and read back without its secrets; another company’s settings untouched', async () => {
    expect((await settingsOf('a')).body).toMatchObject({ adapter: 'files', source: 'default', box_id: null, token_set: false, in_flight: 0 });
    const saved = await save('a', { adapter: 'diadoc', box_id: ` ${BOX_A} `, token: 'token-of-a', refresh_token: 'refresh-of-a', client_id: 'reis-app', client_secret: 'secret-of-a' });
    expect(saved.status).toBe(200);
    const expected = { company_id: co.a.id, adapter: 'diadoc', source: 'settings', box_id: BOX_A, token_set: true, refresh_token_set: true, client_id: 'reis-app', client_secret_set: true, in_flight: 0 };
    expect(saved.body).toMatchObject(expected);
    const read = await settingsOf('a');
    expect(read.body).toMatchObject(expected);
    for (const body of [saved.body, read.body]) {
      const text = JSON.stringify(body);
      for (const secret of ['token-of-a', 'refresh-of-a', 'secret-of-a']) expect(text).not.toContain(secret);
    }
    // The job reads them from the database.
    expect(await stored('a')).toMatchObject({ adapter: 'diadoc', box_id: BOX_A, token: 'token-of-a', refresh_token: 'refresh-of-a', client_secret: 'secret-of-a', updated_by: co.a.admin.id });

    // Saved again without the secrets: they are kept; null removes one (the refresh set as a whole).
    expect((await save('a', { adapter: 'diadoc', box_id: BOX_A, token: '', client_id: 'reis-app' })).body).toMatchObject({ token_set: true, refresh_token_set: true });
    expect((await stored('a'))?.token).toBe('token-of-a');
    expect((await save('a', { adapter: 'diadoc', refresh_token: null, client_id: null, client_secret: null })).body).toMatchObject({ box_id: BOX_A, token_set: true, refresh_token_set: false, client_id: null, client_secret_set: false });

    // Company B's: untouched, and not readable nor writable by A's admin; a manager reads nothing.
    expect((await settingsOf('b')).body).toMatchObject({ adapter: 'files', source: 'default', token_set: false });
    expect(await stored('b')).toBeUndefined();
    expect((await call(s, 'GET', `/api/companies/${co.b.id}/operator`, { token: co.a.admin.token })).status).toBe(404);
    expect((await save('b', { adapter: 'files' }, co.a.admin)).status).toBe(403);
    expect((await settingsOf('a', co.a.manager)).status).toBe(403);
    expect(await stored('b')).toBeUndefined();
  });

  it('bad input: 400 in Russian naming the field, nothing saved', async () => {
    const cases: [unknown, string][] = [
      [{ adapter: 'sbis' }, 'Оператор: ожидается files или diadoc'],
      [{ adapter: 'diadoc', token: 't' }, 'Идентификатор ящика: укажите ящик Диадока'],
      [{ adapter: 'diadoc', box_id: 'ящик-1', token: 't' }, 'Идентификатор ящика: неверный формат — GUID ящика из Диадока, например 09ae254c-5cd0-4082-84de-7ccb46d86f82'],
      [{ adapter: 'diadoc', box_id: BOX_B }, 'Токен доступа: укажите токен API Диадока'],
      [{ adapter: 'diadoc', box_id: BOX_B, token: 'a token' }, 'Токен доступа: без пробелов и переносов строк'],
      [{ adapter: 'diadoc', box_id: BOX_B, token: 't', refresh_token: 'r' }, 'Идентификатор клиента: для обновления токена нужны токен обновления, идентификатор и секрет клиента вместе'],
      [{ adapter: 'diadoc', box_id: BOX_B, token: 't', client_id: 'app', client_secret: 's' }, 'Токен обновления: для обновления токена нужны токен обновления, идентификатор и секрет клиента вместе'],
      [{ adapter: 'diadoc', box_id: BOX_B, token: 't', password: 'x' }, 'password: неизвестное поле'],
    ];
    for (const [body, detail] of cases) {
      const res = await save('b', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    expect(await stored('b')).toBeUndefined();
    // The older form of a box id, with @diadoc.ru, is taken too.
    expect((await save('b', { adapter: 'diadoc', box_id: '09ae254c5cd0408284de7ccb46d86f82@diadoc.ru', token: 'token-of-b' })).body).toMatchObject({ box_id: '09ae254c5cd0408284de7ccb46d86f82@diadoc.ru', token_set: true });
  });

  it('two companies served by one job, each through its own box with its own token; a token changed is used at once', async () => {
    await save('b', { adapter: 'diadoc', box_id: BOX_B, token: 'token-of-b' });
    const fakes = {
      a: new FakeDiadoc({ url: API, token: 'token-of-a', boxId: BOX_A, companyId: co.a.id, pollMs: 60_000, timeoutMs: 30_000 }),
      b: new FakeDiadoc({ url: API, token: 'token-of-b', boxId: BOX_B, companyId: co.b.id, pollMs: 60_000, timeoutMs: 30_000 }),
    };
    // One Диадок: the token says whose box a call is for.
    const fetch: Fetch = async (url, init) => {
      const fake = Object.values(fakes).find((f) => init.headers.authorization === `Bearer ${f.accepted}`);
      return fake ? fake.fetch(url, init) : { status: 401, text: async () => '' };
    };
    const titles = { a: await readyTitle('a', 'Петров Иван Сергеевич'), b: await readyTitle('b', 'Сидоров Олег Петрович') };
    const job = startOperatorJob(s.db, null, { fetch, timer: false });
    const at = new Date('2026-11-28T10:00:00Z');
    const runs = await job.runEach(at);
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual([co.a.id, co.b.id].sort((x, y) => x - y));
    for (const k of ['a', 'b'] as const) {
      expect(runs.get(co[k].id), k).toMatchObject({ sent: 1, errors: [] });
      expect(fakes[k].docs.has(titles[k].key)).toBe(true);
      expect(fakes[k].docs.size).toBe(1);
      const box = k === 'a' ? BOX_A : BOX_B;
      for (const r of fakes[k].requests) {
        expect(r.query.boxId ?? (r.body as { FromBoxId?: string } | undefined)?.FromBoxId, `${k} ${r.path}`).toBe(box);
      }
      expect(await state(titles[k].id)).toBe('sent');
    }
    // Each company's screen names its own box.
    for (const k of ['a', 'b'] as const) {
      const page = await call<DocumentPage>(s, 'GET', '/api/documents/', { token: co[k].manager.token });
      expect(page.body.exchange).toEqual({ adapter: 'diadoc', box_id: k === 'a' ? BOX_A : BOX_B, last_run: runs.get(co[k].id) });
      expect((await call(s, 'GET', `/api/documents/export?date=${DAY}`, { token: co[k].manager.token })).status).toBe(409);
    }

    // B's admin gives a new token: the next pass uses it, A's calls keep theirs.
    fakes.b.accepted = 'new-token-of-b';
    expect((await save('b', { adapter: 'diadoc', token: 'new-token-of-b' })).status).toBe(200);
    const from = { a: fakes.a.requests.length, b: fakes.b.requests.length };
    await job.runEach(new Date(at.getTime() + 60_000));
    expect(new Set(fakes.b.requests.slice(from.b).map((r) => r.headers.authorization))).toEqual(new Set(['Bearer new-token-of-b']));
    expect(new Set(fakes.a.requests.slice(from.a).map((r) => r.headers.authorization))).toEqual(new Set(['Bearer token-of-a']));

    // Leaving the box while its title waits for ГИС ЭПД: refused, naming how many; the setting stays.
    expect((await settingsOf('a')).body.in_flight).toBe(1);
    for (const body of [{ adapter: 'files' }, { adapter: 'diadoc', box_id: BOX_B }]) {
      const refused = await save('a', body);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(`Нельзя сменить оператора: 1 документ отправлен через ящик Диадока ${BOX_A} и ждёт ответа ГИС ЭПД. Дождитесь ответа (принят или отклонён) или аннулируйте его в «Документах»`);
    }
    expect(await stored('a')).toMatchObject({ adapter: 'diadoc', box_id: BOX_A });
    // The same box with another token is no switch.
    fakes.a.accepted = 'new-token-of-a';
    expect((await save('a', { adapter: 'diadoc', token: 'new-token-of-a' })).status).toBe(200);

    // Answered: the title keeps its УИД, and the company may leave the box; the job serves B only.
    fakes.a.outcome.set(fakes.a.docs.get(titles.a.key)!.messageId, 'accepted');
    expect((await job.runEach(new Date(at.getTime() + 120_000))).get(co.a.id)).toMatchObject({ accepted: 1 });
    expect(await state(titles.a.id)).toBe('accepted');
    const files = await save('a', { adapter: 'files' });
    expect(files.status).toBe(200);
    expect(files.body).toMatchObject({ adapter: 'files', source: 'settings', in_flight: 0 });
    expect([...(await job.runEach(new Date(at.getTime() + 180_000))).keys()]).toEqual([co.b.id]);
    expect((await call<DocumentPage>(s, 'GET', '/api/documents/', { token: co.a.manager.token })).body.exchange).toEqual({ adapter: 'files', box_id: null, last_run: null });
    await job.close();
  });

  it('the environment’s company: served while it saved nothing; a saved setting wins over the environment', async () => {
    const c = await makeCompany(s, `ТК «Среда» ${Date.now()}`);
    const admin = await withAccessToken(s, await makeUser(s, 'admin', c));
    const env: DiadocSettings = { url: API, token: 'env-token', boxId: BOX_A, companyId: c, pollMs: 60_000, timeoutMs: 30_000, refresh: null };
    const app = await buildApp({ config: { ...s.config, diadoc: env, operatorJob: false }, db: s.db });
    try {
      const get = async () => (await app.inject({ method: 'GET', url: `/api/companies/${c}/operator`, headers: { authorization: `Bearer ${admin.token}` } })).json() as OperatorSettings;
      expect(await get()).toMatchObject({ adapter: 'diadoc', source: 'environment', box_id: BOX_A, token_set: true });
      expect(JSON.stringify(await get())).not.toContain('env-token');
      const fake = new FakeDiadoc(env);
      const job = startOperatorJob(s.db, env, { fetch: fake.fetch, timer: false });
      expect([...(await job.runEach(new Date('2026-11-28T12:00:00Z'))).keys()]).toContain(c);

      const put = await app.inject({ method: 'PUT', url: `/api/companies/${c}/operator`, headers: { authorization: `Bearer ${admin.token}` }, payload: { adapter: 'files' } });
      expect(put.statusCode).toBe(200);
      expect(await get()).toMatchObject({ adapter: 'files', source: 'settings', token_set: false });
      expect([...(await job.runEach(new Date('2026-11-28T12:01:00Z'))).keys()]).not.toContain(c);
      const page = await app.inject({ method: 'GET', url: '/api/documents/', headers: { authorization: `Bearer ${admin.token}` } });
      expect((page.json() as DocumentPage).exchange.adapter).toBe('files');
      await job.close();
    } finally {
      await app.close();
    }
  });
});
