/**
 * The exchange's documents (issue 33 §3; docs/documents.md «The exchange»): a trip's title taken in as a draft, made
 * ready (its XML frozen), the illegal moves refused with a Russian 409; the files adapter's day zip (unzipped and
 * read back), sent exactly once — a second export and an export after a restart hand nothing over twice —; the
 * operator's answers (accepted with УИД and QR, rejected with the reason and the fix, an unknown file reported back
 * with nothing changed); the list's filters; another company's documents 404.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { carrierCards, SHIPPER_EDO, stampedTrip, type CarrierCards, type StampedTrip } from '../fixtures/papers.ts';
import { openDb } from '../../server/db/connect.ts';
import { buildApp } from '../../server/app.ts';
import type { AnswersResult, BulkReadyResult, DocumentItem, DocumentPage } from '../../contract/documents.ts';
import type { Page, Task } from '../../contract/entities.ts';
import type { ReportDocuments } from '../../contract/calls/papers.ts';

const DAY = '2026-11-27';
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64');

describe.each(backends)('the exchange’s documents ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let cards: CarrierCards;
  let first: StampedTrip;
  let second: StampedTrip;
  let otherDay: StampedTrip;
  let manager: SignedInUser;
  let stranger: SignedInUser;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    const company = await makeCompany(s, `ТК «Рейс» ${Date.now()}`);
    cards = await carrierCards(s, company, { shipperEdo: SHIPPER_EDO, carrierEdo: true });
    first = await stampedTrip(s, cards, DAY);
    second = await stampedTrip(s, cards, DAY, 'Сидоров Олег Петрович');
    otherDay = await stampedTrip(s, cards, '2026-11-26', 'Кузнецов Артём Ильич');
    manager = await withAccessToken(s, await makeUser(s, 'manager', company, { name: 'Волков Сергей Николаевич' }));
    stranger = await withAccessToken(s, await makeUser(s, 'manager', await makeCompany(s)));
  });

  const post = <T = DocumentItem>(url: string, body: unknown = undefined, token = manager.token) => call<T & { detail: string }>(s, 'POST', url, { token, body });
  const take = (report: number, title = 't1') => post('/api/documents/', { report_id: report, title });
  const get = async (url: string, token = manager.token, app = s.app) => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: () => res.json() as { detail: string } };
  };
  const list = async (query: string, token = manager.token) => (await call<DocumentPage>(s, 'GET', `/api/documents/?${query}`, { token })).body;

  it('a title taken in as a draft, made ready with its XML frozen; every illegal move a Russian 409', async () => {
    const draft = await take(first.trip);
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ state: 'draft', title: 't1', direction: 'out', report_id: first.trip, trip_date: DAY, vehicle_id: cards.vehicle, file_name: null, can_mark_ready: true, can_annul: true });
    expect(draft.body.counterparties.map((c) => c.id).sort()).toEqual([cards.shipper, cards.consignee].sort());
    const twice = await take(first.trip);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toContain('уже в работе');
    expect((await get(`/api/documents/${draft.body.id}/file.xml`)).status).toBe(409);

    const ready = await post(`/api/documents/${draft.body.id}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ state: 'ready', can_mark_ready: false, can_annul: true });
    expect(ready.body.file_name).toMatch(/^ON_TRNACLGROT_/);
    expect((await post(`/api/documents/${draft.body.id}/ready`)).body.detail).toBe('Документ уже готов к подписи');
    const file = await get(`/api/documents/${draft.body.id}/file.xml`);
    expect(file.status).toBe(200);
    expect(file.bytes.subarray(0, 60).toString('latin1')).toContain('encoding="windows-1251"');
    // Frozen: a later change of the cards does not change the file made ready.
    await s.db.kysely.updateTable('counterparties').set({ name: 'ООО «Карьер Южный»', full_name: 'ООО «Карьер Южный»' }).where('id', '=', cards.shipper).execute();
    expect((await get(`/api/documents/${draft.body.id}/file.xml`)).bytes.equals(file.bytes)).toBe(true);
    await s.db.kysely.updateTable('counterparties').set({ name: 'ООО «Карьер Северный»', full_name: 'ООО «Карьер Северный»' }).where('id', '=', cards.shipper).execute();

    // Т2 waits for the shipper's signed Т1 and the УИД: marked ready it is refused naming what is missing.
    const t2 = await take(first.trip, 't2');
    const refused = await post(`/api/documents/${t2.body.id}/ready`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('Не хватает сведений для');
    expect((await post(`/api/documents/${t2.body.id}/annul`, { reason: 'Ждём Т1 от грузоотправителя' })).body).toMatchObject({ state: 'annulled', reason: 'Ждём Т1 от грузоотправителя', can_annul: false });
    expect((await post(`/api/documents/${t2.body.id}/annul`, {})).body.detail).toBe('Документ уже аннулирован');
    expect((await post(`/api/documents/${t2.body.id}/ready`)).status).toBe(409);
    // Annulled, the title can be taken in again.
    expect((await take(first.trip, 't2')).status).toBe(201);
    expect((await post('/api/documents/', { report_id: first.trip, title: 't3' })).status).toBe(400);
  });

  it('the day’s zip: the ready titles as windows-1251 XML named by their ИдФайл, each sent once — not again on a second export nor after a restart', async () => {
    const b = await take(second.trip);
    await post(`/api/documents/${b.body.id}/ready`);
    const c = await take(otherDay.trip);
    await post(`/api/documents/${c.body.id}/ready`);
    const ready = (await list(`state=ready&from=${DAY}&to=${DAY}`)).items;
    expect(ready).toHaveLength(2);

    const zip = await get(`/api/documents/export?date=${DAY}`);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toContain('application/zip');
    expect(zip.headers['x-documents-sent']).toBe('2');
    const files = unzipSync(new Uint8Array(zip.bytes));
    expect(Object.keys(files).sort()).toEqual(ready.map((d) => `${d.file_name}.xml`).sort());
    for (const [name, bytes] of Object.entries(files)) {
      const text = new TextDecoder('windows-1251').decode(bytes);
      expect(text).toContain('encoding="windows-1251"');
      expect(text).toContain(`ИдФайл="${name.replace(/\.xml$/, '')}"`);
      expect(text).toContain('ООО «Карьер Северный»');
    }
    const sent = (await list(`from=${DAY}&to=${DAY}&state=sent`)).items;
    expect(sent.map((d) => d.id).sort()).toEqual(ready.map((d) => d.id).sort());
    expect(sent.every((d) => d.sent_at !== null && !d.can_annul)).toBe(true);
    // The other day's title stays ready.
    expect((await list('state=ready')).items.map((d) => d.id)).toEqual([c.body.id]);

    const again = await get(`/api/documents/export?date=${DAY}`);
    expect(again.status).toBe(409);
    expect(again.json().detail).toBe('За 27.11.2026 нет документов, готовых к отправке. Уже отправлено и ждёт ответа оператора: 2 — повторно они не отправляются; скачать их ещё раз можно с again=1.');
    const resend = await get(`/api/documents/export?date=${DAY}&again=1`);
    expect(resend.status).toBe(200);
    expect([resend.headers['x-documents-sent'], resend.headers['x-documents-resent']]).toEqual(['0', '2']);
    expect(Object.keys(unzipSync(new Uint8Array(resend.bytes))).sort()).toEqual(Object.keys(files).sort());
    expect((await list('state=sent')).items.map((d) => d.sent_at).sort()).toEqual(sent.map((d) => d.sent_at).sort());

    // A restart: a new process over the same database hands nothing over twice either.
    const db = await openDb({ databaseUrl: s.config.databaseUrl, sqliteFile: join(s.config.dataDir, 'reis.sqlite'), sqliteBusyWaitMs: s.config.sqliteBusyWaitMs });
    const restarted = await buildApp({ config: s.config, db });
    try {
      await restarted.ready();
      expect((await get(`/api/documents/export?date=${DAY}`, manager.token, restarted)).status).toBe(409);
      const other = await get('/api/documents/export?date=2026-11-26', manager.token, restarted);
      expect(other.headers['x-documents-sent']).toBe('1');
    } finally {
      await restarted.close();
      await db.close();
    }
    expect((await get('/api/documents/export?date=2026-11-26')).status).toBe(409);
    expect((await get('/api/documents/export?date=2026-11-31')).status).toBe(400);
  });

  it('the operator’s answers: accepted with УИД and QR, rejected with the reason and the fix; unknown and unreadable files reported back, nothing changed', async () => {
    const [a, b] = (await list(`state=sent&from=${DAY}&to=${DAY}`)).items.sort((x, y) => x.id - y.id);
    if (!a || !b) throw new Error('two sent documents expected');
    const uid = 'd1e41efa-4cf4-4a1f-ace9-f2bfad05587b';
    const answers = await post<AnswersResult>('/api/documents/answers', {
      files: [
        { name: 'ответ-1.json', data: b64({ answers: [{ file: a.file_name, status: 'accepted', uid, qr: `https://epd.example/trn/${uid}` }] }) },
        { name: 'ответ-2.json', data: b64({ file: b.file_name, status: 'Error', details: [{ code: 'TRN-17', text: 'Неверный ИНН грузополучателя' }], fix: 'Исправьте ИНН в карточке контрагента' }) },
        { name: 'чужой.json', data: b64([{ file: 'ON_TRNACLGROT_unknown_0_20261127_x', status: 'accepted', uid: 'u-1' }]) },
        { name: 'квитанция.xml', data: b64('<Квитанция/>') },
      ],
    });
    expect(answers.status).toBe(200);
    expect(answers.body.applied).toBe(2);
    expect(answers.body.outcomes.map((o) => [o.name, o.outcome])).toEqual([
      ['квитанция.xml', 'invalid'],
      ['ответ-1.json', 'accepted'],
      ['ответ-2.json', 'rejected'],
      ['чужой.json', 'unknown'],
    ]);
    expect(answers.body.outcomes.find((o) => o.name === 'чужой.json')?.detail).toContain('не найден');
    const accepted = (await list(`state=accepted`)).items;
    expect(accepted).toHaveLength(1);
    expect(accepted[0]).toMatchObject({ id: a.id, uid, qr: `https://epd.example/trn/${uid}`, can_annul: true, can_mark_ready: false });
    const rejected = (await list(`state=rejected`)).items[0];
    expect(rejected).toMatchObject({ id: b.id, reason: 'TRN-17: Неверный ИНН грузополучателя', fix: 'Исправьте ИНН в карточке контрагента', can_mark_ready: true });

    // Each trip's driver sees his waybill on his card (GET /tasks/assigned/, the call his tasks come from): the
    // accepted one with its УИД and QR, the rejected one as such, without either.
    const card = async (report: number) => {
      const trip = [first, second].find((t) => t.trip === report);
      if (!trip) throw new Error(`no trip with report ${report}`);
      const res = await call<Page<Task>>(s, 'GET', '/api/tasks/assigned/', { token: trip.driver.token });
      return res.body.items.find((t) => t.id === trip.task)?.waybills;
    };
    expect(await card(a.report_id)).toEqual([{ report_id: a.report_id, trip_uid: expect.any(String), state: 'accepted', title: a.title, uid, qr: `https://epd.example/trn/${uid}` }]);
    expect(await card(b.report_id)).toEqual([{ report_id: b.report_id, trip_uid: expect.any(String), state: 'rejected', title: b.title, uid: null, qr: null }]);

    // The trip's «Документы» panel (GET /reports/{id}/documents) shows where each title stands in the exchange: the
    // accepted Т1 with its УИД and QR, the rejected one with the operator's reason and fix, a title not taken in none.
    const panel = async (report: number) =>
      Object.fromEntries((await call<ReportDocuments>(s, 'GET', `/api/reports/${report}/documents`, { token: manager.token })).body.titles.map((t) => [t.title, t.exchange]));
    expect(await panel(a.report_id)).toEqual({
      t1: { document_id: a.id, state: 'accepted', uid, qr: `https://epd.example/trn/${uid}`, reason: null, fix: null, updated_at: expect.any(String) },
      t2: a.report_id === first.trip ? expect.objectContaining({ state: 'draft' }) : null,
      t4: null,
    });
    expect((await panel(b.report_id)).t1).toMatchObject({ document_id: b.id, state: 'rejected', uid: null, reason: 'TRN-17: Неверный ИНН грузополучателя', fix: 'Исправьте ИНН в карточке контрагента' });

    // The same answers again change nothing.
    const twice = await post<AnswersResult>('/api/documents/answers', { files: [{ name: 'ответ-1.json', data: b64({ file: a.file_name, status: 'accepted', uid }) }] });
    expect([twice.body.applied, twice.body.outcomes[0]?.outcome]).toEqual([0, 'unchanged']);
    // A rejected title, fixed, is made ready again: a new file and a new key; the old file's answer no longer applies.
    const remade = await post(`/api/documents/${b.id}/ready`);
    expect(remade.body).toMatchObject({ state: 'ready', reason: null, fix: null });
    expect(remade.body.file_name).not.toBe(b.file_name);
    const late = await post<AnswersResult>('/api/documents/answers', { files: [{ name: 'поздний.json', data: b64({ file: b.file_name, status: 'accepted', uid: 'late' }) }] });
    expect(late.body.outcomes[0]?.outcome).toBe('unknown');
    expect((await post<AnswersResult>('/api/documents/answers', { files: [] })).status).toBe(400);
  });

  it('filters by state, period, vehicle and counterparty; another company sees none of it and gets 404 on each', async () => {
    const all = await list('');
    expect(all.total).toBe(all.items.length);
    expect(all.counts).toMatchObject({ accepted: 1, ready: 1, annulled: 1 });
    expect((await list('from=2026-11-26&to=2026-11-26')).items.every((d) => d.trip_date === '2026-11-26')).toBe(true);
    expect((await list(`vehicle_id=${cards.vehicle}`)).total).toBe(all.total);
    expect((await list(`counterparty_id=${cards.shipper}`)).total).toBe(all.total);
    expect((await list(`counterparty_id=${cards.shipper}&state=draft`)).items.every((d) => d.state === 'draft')).toBe(true);
    expect((await call(s, 'GET', '/api/documents/?from=2026-11-27&to=2026-11-01', { token: manager.token })).status).toBe(400);
    expect((await list('limit=2')).next_offset).toBe(2);

    const one = all.items[0] as DocumentItem;
    expect((await list('', stranger.token)).items).toEqual([]);
    expect((await post(`/api/documents/${one.id}/ready`, undefined, stranger.token)).status).toBe(404);
    expect((await post(`/api/documents/${one.id}/annul`, {}, stranger.token)).status).toBe(404);
    expect((await get(`/api/documents/${one.id}/file.xml`, stranger.token)).status).toBe(404);
    expect((await post('/api/documents/', { report_id: first.trip, title: 't4' }, stranger.token)).status).toBe(404);
    expect((await get(`/api/documents/export?date=${DAY}`, stranger.token)).status).toBe(409);
    const theirs = await post<AnswersResult>('/api/documents/answers', { files: [{ name: 'a.json', data: b64({ file: one.file_name ?? 'x', status: 'rejected', reason: 'нет' }) }] }, stranger.token);
    expect(theirs.body.outcomes[0]?.outcome).toBe('unknown');
    expect((await get(`/api/documents/?company_id=${cards.company}`, stranger.token)).status).toBe(404);
  });

  it('our own Т1, signed by the shipper and accepted with its УИД: the Т2 carries that УИД and the Т1 file’s id, date, time and signature, and validates', async () => {
    const t1 = (await list('state=sent&from=2026-11-26&to=2026-11-26')).items[0];
    if (!t1?.file_name) throw new Error('the other day’s sent Т1 expected');
    expect((await get(`/api/reports/${otherDay.trip}/etrn/t2.xml`)).status).toBe(409);
    const uid = '7f3c2a10-5b6e-4d8f-9a1b-2c3d4e5f6a7b';
    const signature = Buffer.from('подпись грузоотправителя (CMS)').toString('base64');
    const answered = await post<AnswersResult>('/api/documents/answers', { files: [{ name: 'т1.json', data: b64({ file: t1.file_name, status: 'accepted', uid, signature }) }] });
    expect(answered.body.applied).toBe(1);

    const t2 = await get(`/api/reports/${otherDay.trip}/etrn/t2.xml`);
    expect(t2.status).toBe(200);
    const xml = new TextDecoder('windows-1251').decode(t2.bytes);
    const header = /ДатИнфГО="(\d\d\.\d\d\.\d{4})" ВрИнфГО="([^"]+)"/.exec(new TextDecoder('windows-1251').decode((await get(`/api/documents/${t1.id}/file.xml`)).bytes));
    expect(header).not.toBeNull();
    expect(xml).toContain(`УИД_ТрН="${uid}"`);
    expect(xml).toContain(`<ИдИнфГО ИдФайлИнфГО="${t1.file_name}" ДатФайлИнфГО="${header?.[1]}" ВрФайлИнфГО="${header?.[2]}" ЭП="${signature}"`);
    const dir = mkdtempSync(join(tmpdir(), 'reis-documents-'));
    const path = join(dir, 't2.xml');
    writeFileSync(path, t2.bytes);
    const run = spawnSync('xmllint', ['--noout', '--schema', join(process.cwd(), 'server/etrn/schemas/etrn-t2-carrier-accepts.xsd'), path], { encoding: 'utf8' });
    expect(run.stderr).toContain('validates');
    expect(run.status).toBe(0);
  });

  it('«Готов к подписи» for several at once: each made ready or reported with why (a missing fact, its state, not found), in one call', async () => {
    const t2 = await take(otherDay.trip, 't2');
    const waiting = (await list('state=draft')).items.find((d) => d.report_id === first.trip && d.title === 't2');
    const accepted = (await list('state=accepted')).items[0];
    if (!waiting || !accepted) throw new Error('a draft Т2 and an accepted document expected');
    const bulk = await post<BulkReadyResult>('/api/documents/ready', { ids: [t2.body.id, waiting.id, accepted.id, 999_999] });
    expect(bulk.status).toBe(200);
    expect(bulk.body.moved).toBe(1);
    expect(bulk.body.outcomes.map((o) => [o.id, o.ok, o.item?.state ?? null])).toEqual([
      [t2.body.id, true, 'ready'],
      [waiting.id, false, null],
      [accepted.id, false, null],
      [999_999, false, null],
    ]);
    const [, missing, state, unknown] = bulk.body.outcomes;
    expect(missing?.detail).toContain('Не хватает сведений для');
    expect(state?.detail).toMatch(/^Документ/);
    expect(unknown?.detail).toBe('Документ не найден');
    expect((await list('state=draft')).items.map((d) => d.id)).toContain(waiting.id);
    // Bad input: 400 in Russian; none of them the caller's: 404.
    for (const ids of [[], [t2.body.id, t2.body.id], ['1']]) expect((await post('/api/documents/ready', { ids })).status).toBe(400);
    expect((await post('/api/documents/ready', { ids: [waiting.id] }, stranger.token)).status).toBe(404);
  });
});
