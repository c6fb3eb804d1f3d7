/**
 * The Диадок API adapter's job (server/documents/operator-job.ts, server/documents/diadoc.ts; docs/documents.md «The
 * Диадок API adapter») against a fake Диадок that answers with the recorded examples of tests/fixtures/diadoc/ (no
 * network): a title sent once under its key and accepted with the УИД; rejected with ГИС ЭПД's reason; a timeout
 * whose outcome is unknown, then found sent by its key and not sent again; two instances' jobs sending it once; a
 * restart mid-way (the claim of a process that died) taken over after the lease, asked before sending; the screen's
 * line (the adapter and the last pass). The second round: a shipper's Т1 in the box fetched (GetNewEvents,
 * GetEntityContent), linked to its trip with its differences, its event not taken twice; the carrier's Т2 posted as
 * an answer in the Т1's message (PostMessagePatch with its MessageId and ParentEntityId), once across a lost answer,
 * two instances and a restart; an expired token refreshed once on a 401, a second 401 reported, not looped. On both
 * databases (the claim is a conditional UPDATE).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { carrierCards, SHIPPER_EDO, stampedTrip, type CarrierCards } from '../fixtures/papers.ts';
import { buildApp } from '../../server/app.ts';
import type { DiadocSettings } from '../../server/config.ts';
import { backoffMs, LEASE_MS, startOperatorJob } from '../../server/documents/operator-job.ts';
import type { Fetch } from '../../server/documents/diadoc.ts';
import { FakeDiadoc, POLLS } from '../fixtures/diadoc-fake.ts';
import type { DocumentItem, DocumentPage } from '../../contract/documents.ts';
import type { ReportDocuments } from '../../contract/calls/papers.ts';
import { gatherTrip } from '../../server/papers/gather.ts';
import { etrnFacts } from '../../server/papers/map.ts';
import { tripFacts } from '../../server/trips/facts.ts';
import { buildT1Draft } from '../../server/etrn/titles.ts';
import { encodeCp1251 } from '../../server/etrn/xml.ts';

const DAY = '2026-11-27';
describe.each(backends)('the Диадок API adapter’s job ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let cards: CarrierCards;
  let company: number;
  let manager: SignedInUser;
  let settings: DiadocSettings;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    company = await makeCompany(s, `ТК «Рейс» ${Date.now()}`);
    cards = await carrierCards(s, company, { shipperEdo: SHIPPER_EDO, carrierEdo: true });
    manager = await withAccessToken(s, await makeUser(s, 'manager', company, { name: 'Волков Сергей Николаевич' }));
    settings = { url: 'https://diadoc-api.kontur.ru', token: 'test-access-token', boxId: '8d3f1c2a-5b6e-4f70-9a81-2c3d4e5f6a7b', companyId: company, pollMs: 60_000, timeoutMs: 30_000 };
  });

  const post = <T = DocumentItem>(url: string, body: unknown = undefined) => call<T & { detail: string }>(s, 'POST', url, { token: manager.token, body });
  /** A stamped trip's Т1 made ready: its key stored before anything is sent. */
  async function readyTitle(driver: string): Promise<DocumentItem & { key: string }> {
    const trip = await stampedTrip(s, cards, DAY, driver);
    const draft = await post('/api/documents/', { report_id: trip.trip, title: 't1' });
    const ready = await post(`/api/documents/${draft.body.id}/ready`);
    expect(ready.body.state).toBe('ready');
    const row = await s.db.kysely.selectFrom('etrn_documents').select('idempotency_key').where('id', '=', ready.body.id).executeTakeFirstOrThrow();
    return { ...ready.body, key: row.idempotency_key as string };
  }
  const doc = (id: number) => s.db.kysely.selectFrom('etrn_documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const job = (fake: FakeDiadoc) => startOperatorJob(s.db, settings, { fetch: fake.fetch, timer: false });

  it('a title sent once under its key, unsigned for the carrier to sign in Диадок; accepted: the УИД and QR stored', async () => {
    const fake = new FakeDiadoc(settings);
    const title = await readyTitle('Петров Иван Сергеевич');
    const one = job(fake);
    const at = new Date('2026-11-28T10:00:00Z');
    const first = await one.runOnce(at);
    expect(first).toMatchObject({ sent: 1, accepted: 0, waiting: 1, errors: [] });
    expect(fake.posts()).toBe(1);
    const request = fake.requests.find((r) => r.path === '/V3/PostMessage')!;
    expect(request.query.operationId).toBe(title.key);
    expect(request.headers.authorization).toBe('Bearer test-access-token');
    expect(request.body).toMatchObject({ FromBoxId: settings.boxId, DelaySend: true, DocumentAttachments: [{ TypeNamedId: 'LogisticsWaybill', Version: 'kl_trn_mt_05_01', CustomDocumentId: title.key }] });
    const sent = fake.docs.get(title.key)!;
    expect(sent.xml).toContain(`ИдФайл="${title.file_name}"`);
    expect(sent.xml).not.toContain('Signature');
    expect(await doc(title.id)).toMatchObject({ state: 'sent', operator_message_id: sent.messageId, operator_entity_id: sent.entityId, operator_claim: null, operator_attempts: 1 });

    // Still in ГИС ЭПД: nothing changes, nothing is sent again.
    expect(await one.runOnce(new Date(at.getTime() + 60_000))).toMatchObject({ sent: 0, accepted: 0, waiting: 1 });
    fake.outcome.set(sent.messageId, 'accepted');
    expect(await one.runOnce(new Date(at.getTime() + 120_000))).toMatchObject({ sent: 0, accepted: 1, waiting: 0 });
    expect(await doc(title.id)).toMatchObject({ state: 'accepted', uid: 'd1e41efa-4cf4-4a1f-ace9-f2bfad05587b', qr: 'd1e41efa-4cf4-4a1f-ace9-f2bfad05587b' });
    expect(fake.posts()).toBe(1);
    await one.close();
  });

  it('rejected by ГИС ЭПД: «Отклонён» with its code and text, to be fixed and made ready again under a new key', async () => {
    const fake = new FakeDiadoc(settings);
    const title = await readyTitle('Сидоров Олег Петрович');
    const one = job(fake);
    await one.runOnce(new Date('2026-11-28T11:00:00Z'));
    fake.outcome.set(fake.docs.get(title.key)!.messageId, 'rejected');
    expect(await one.runOnce(new Date('2026-11-28T11:01:00Z'))).toMatchObject({ rejected: 1 });
    const row = await doc(title.id);
    expect(row.state).toBe('rejected');
    expect(row.reason).toBe('Ошибка обработки в ГИС ЭПД; TRN-0412: Не указан номер водительского удостоверения водителя');
    expect(row.fix).toContain('Готов к подписи');
    const again = await post(`/api/documents/${title.id}/ready`);
    expect(again.body.state).toBe('ready');
    const newKey = (await doc(title.id)).idempotency_key;
    expect(newKey).not.toBe(title.key);
    // Out of the next tests' way.
    expect((await post(`/api/documents/${title.id}/annul`, {})).body.state).toBe('annulled');
    await one.close();
  });

  it('a timeout whose outcome is unknown: retried after the backoff, asked first — found sent, not sent again', async () => {
    const fake = new FakeDiadoc(settings);
    const title = await readyTitle('Кузнецов Артём Ильич');
    const one = job(fake);
    const at = new Date('2026-11-28T12:00:00Z');
    fake.loseNextAnswer = true;
    const first = await one.runOnce(at);
    expect(first.sent).toBe(0);
    expect(first.errors).toEqual(['Диадок не ответил за 30 с']);
    expect(fake.docs.has(title.key)).toBe(true); // Диадок did create it
    expect(await doc(title.id)).toMatchObject({ state: 'ready', operator_claim: null, operator_attempts: 1, operator_error: 'Диадок не ответил за 30 с', operator_next_at: new Date(at.getTime() + backoffMs(1)).toISOString() });

    // Before the backoff: not touched, its error still shown.
    expect((await one.runOnce(new Date(at.getTime() + backoffMs(1) - 1000))).errors).toEqual(['Диадок не ответил за 30 с']);
    expect(fake.requests.filter((r) => !POLLS.includes(r.path))).toHaveLength(1);
    // After: asked by its key, found, recorded as sent — no second PostMessage.
    const second = await one.runOnce(new Date(at.getTime() + backoffMs(1)));
    expect(second.sent).toBe(1);
    expect(fake.requests.map((r) => r.path).filter((p) => !POLLS.includes(p))).toEqual(['/V3/PostMessage', '/GetDocumentsByCustomId']);
    expect(fake.posts(title.key)).toBe(1);
    expect(await doc(title.id)).toMatchObject({ state: 'sent', operator_message_id: fake.docs.get(title.key)!.messageId, operator_attempts: 2, operator_error: null });
    await one.close();
  });

  it('two instances’ jobs at once: each title claimed by one of them and sent once', async () => {
    const fake = new FakeDiadoc(settings);
    const titles = [await readyTitle('Андреев Павел Игоревич'), await readyTitle('Борисов Илья Олегович'), await readyTitle('Васильев Глеб Романович')];
    const a = job(fake);
    const b = job(fake);
    const at = new Date('2026-11-28T13:00:00Z');
    const [ra, rb] = await Promise.all([a.runOnce(at), b.runOnce(at)]);
    expect(ra.sent + rb.sent).toBe(3);
    for (const t of titles) {
      expect(fake.posts(t.key)).toBe(1);
      expect((await doc(t.id)).state).toBe('sent');
    }
    await Promise.all([a.runOnce(new Date(at.getTime() + 60_000)), b.runOnce(new Date(at.getTime() + 60_000))]);
    expect(fake.posts()).toBe(3);
    await Promise.all([a.close(), b.close()]);
  });

  it('a restart mid-way: the claim of a process that died is left alone within its lease, then taken over — asked before sending, sent once', async () => {
    const fake = new FakeDiadoc(settings);
    const lost = await readyTitle('Григорьев Денис Андреевич');
    const never = await readyTitle('Дмитриев Егор Семёнович');
    const at = new Date('2026-11-28T14:00:00Z');
    // The process that died: it had claimed both and counted the attempts; Диадок got the first title, not the second.
    for (const t of [lost, never]) {
      await s.db.kysely.updateTable('etrn_documents').set({ operator_claim: 'dead-process', operator_claimed_at: at.toISOString(), operator_attempts: 1 }).where('id', '=', t.id).execute();
    }
    await fake.fetch(`${settings.url}/V3/PostMessage?operationId=${lost.key}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.token}` },
      body: JSON.stringify({ FromBoxId: settings.boxId, DelaySend: true, DocumentAttachments: [{ SignedContent: { Content: '' } }] }),
    });
    fake.requests = [];
    const calls = () => fake.requests.filter((r) => !POLLS.includes(r.path));

    // Restarted within the lease: the claims are still the dead process's.
    const restarted = job(fake);
    expect(await restarted.runOnce(new Date(at.getTime() + LEASE_MS - 1000))).toMatchObject({ sent: 0 });
    expect(calls()).toHaveLength(0);
    // Past the lease: both taken over, each asked first; the one Диадок has is recorded, the other sent once.
    expect(await restarted.runOnce(new Date(at.getTime() + LEASE_MS + 1000))).toMatchObject({ sent: 2, errors: [] });
    expect(fake.posts(lost.key)).toBe(0);
    expect(fake.posts(never.key)).toBe(1);
    expect(calls().filter((r) => r.path === '/GetDocumentsByCustomId').map((r) => r.query.customDocumentId).sort()).toEqual([lost.key, never.key].sort());
    expect((await doc(lost.id)).operator_message_id).toBe(fake.docs.get(lost.key)!.messageId);
    expect((await doc(never.id)).state).toBe('sent');
    await restarted.close();
  });

  it('a request Диадок refuses (400): «Отклонён» with its words, not retried; the screen names the adapter and the last pass', async () => {
    const fake = new FakeDiadoc(settings);
    const title = await readyTitle('Евдокимов Фёдор Львович');
    const refusing: Fetch = async (url, init) => (url.includes('/V3/PostMessage') ? { status: 400, text: async () => 'Документ не соответствует XSD-схеме' } : fake.fetch(url, init));
    const one = startOperatorJob(s.db, settings, { fetch: refusing, timer: false });
    const run = await one.runOnce(new Date('2026-11-28T15:00:00Z'));
    expect(run.errors).toEqual(['Диадок отказал (400): Документ не соответствует XSD-схеме']);
    expect(await doc(title.id)).toMatchObject({ state: 'rejected', reason: 'Диадок отказал (400): Документ не соответствует XSD-схеме', operator_claim: null });
    await one.close();

    const app = await buildApp({ config: { ...s.config, diadoc: settings, operatorJob: false }, db: s.db });
    try {
      const page = await app.inject({ method: 'GET', url: '/api/documents/', headers: { authorization: `Bearer ${manager.token}` } });
      expect((page.json() as DocumentPage).exchange).toEqual({ adapter: 'diadoc', box_id: settings.boxId, last_run: run });
      const zip = await app.inject({ method: 'GET', url: `/api/documents/export?date=${DAY}`, headers: { authorization: `Bearer ${manager.token}` } });
      expect(zip.statusCode).toBe(409);
      expect((zip.json() as { detail: string }).detail).toContain('Диадок по API');
    } finally {
      await app.close();
    }
    const files = await call<DocumentPage>(s, 'GET', '/api/documents/', { token: manager.token });
    expect(files.body.exchange).toEqual({ adapter: 'files', box_id: null, last_run: null });
  });
  /** A shipper's Т1 of the trip as the shipper's system would make it (our generator's draft), with another mass. */
  async function shipperT1(trip: number) {
    const facts = etrnFacts(await gatherTrip(s.db, trip), await tripFacts(s.db.kysely, trip), { name: 'Смирнов Павел Андреевич', position: 'Мастер' });
    const t1 = buildT1Draft(facts, { guid: randomUUID() });
    const xml = t1.xml.replaceAll('МасБрутЗнач="19600"', 'МасБрутЗнач="21350"').replace('МасБрутОтгр="19600"', 'МасБрутОтгр="21350"');
    return { fileId: t1.fileName, bytes: encodeCp1251(xml) };
  }
  let incoming: { trip: number; messageId: string; entityId: string; fileId: string };

  it('a shipper’s Т1 in the box: fetched, linked to its trip, its differences shown; its event not taken in twice', async () => {
    const fake = new FakeDiadoc(settings);
    const trip = await stampedTrip(s, cards, DAY, 'Жуков Роман Петрович');
    const t1 = await shipperT1(trip.trip);
    const ids = { messageId: 'c0ffee00-1111-4222-8333-444455556666', entityId: 'c0ffee00-aaaa-4bbb-8ccc-ddddeeeeffff', signatureId: '7e3c1a2b-4d5f-4a6b-8c7d-9e0f1a2b3c4d' };
    fake.events.push({ eventId: 'b7e2f0a1-0000-4000-8000-000000000001', indexKey: 'ik-0001', ...ids, fileName: `${t1.fileId}.xml`, uid: '3f9a1c2e-6b7d-4e8f-9a0b-1c2d3e4f5a6b' });
    fake.content.set(ids.entityId, t1.bytes);
    fake.content.set(ids.signatureId, Buffer.from('shipper CMS signature'));
    const one = job(fake);
    expect(await one.runOnce(new Date('2026-11-28T16:00:00Z'))).toMatchObject({ received: 1, errors: [] });
    const row = await s.db.kysely.selectFrom('etrn_incoming').selectAll().where('file_id', '=', t1.fileId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ company_id: company, report_id: trip.trip, title: 't1', operator_message_id: ids.messageId, operator_entity_id: ids.entityId, uid: '3f9a1c2e-6b7d-4e8f-9a0b-1c2d3e4f5a6b', signature: Buffer.from('shipper CMS signature').toString('base64'), received_by: null });
    const papers = await call<ReportDocuments>(s, 'GET', `/api/reports/${trip.trip}/documents`, { token: manager.token });
    expect(papers.body.received.map((r) => r.file_id)).toEqual([t1.fileId]);
    expect(papers.body.received[0]!.differences).toContainEqual({ field: 'mass', label: 'Масса груза', theirs: '21,35 т', ours: '19,6 т' });

    // The next poll starts after its event: nothing fetched again.
    const contents = () => fake.requests.filter((r) => r.path === '/V4/GetEntityContent').length;
    expect(contents()).toBe(2);
    expect(await one.runOnce(new Date('2026-11-28T16:01:00Z'))).toMatchObject({ received: 0, errors: [] });
    expect(fake.requests.filter((r) => r.path === '/V8/GetNewEvents').at(-1)!.query.afterIndexKey).toBe('ik-0001');
    // The cursor lost (a restore, an instance that read before it was stored): the event is known, not taken in again.
    await s.db.kysely.deleteFrom('etrn_operator_cursors').where('company_id', '=', company).execute();
    expect(await job(fake).runOnce(new Date('2026-11-28T16:02:00Z'))).toMatchObject({ received: 0, errors: [] });
    expect(contents()).toBe(2);
    expect(await s.db.kysely.selectFrom('etrn_incoming').select('id').where('report_id', '=', trip.trip).execute()).toHaveLength(1);
    incoming = { trip: trip.trip, messageId: ids.messageId, entityId: ids.entityId, fileId: t1.fileId };
    await one.close();
  });

  it('the carrier’s Т2 answers that Т1 in its message (PostMessagePatch): sent once across a lost answer, two instances and a restart', async () => {
    const fake = new FakeDiadoc(settings);
    const draft = await post('/api/documents/', { report_id: incoming.trip, title: 't2' });
    const ready = await post(`/api/documents/${draft.body.id}/ready`);
    expect(ready.body, JSON.stringify(ready.body)).toMatchObject({ state: 'ready' });
    const key = (await doc(ready.body.id)).idempotency_key as string;
    const at = new Date('2026-11-28T17:00:00Z');
    fake.loseNextAnswer = true;
    const [ra, rb] = await Promise.all([job(fake).runOnce(at), job(fake).runOnce(at)]);
    expect(ra.sent + rb.sent).toBe(0);
    expect([...ra.errors, ...rb.errors]).toContain('Диадок не ответил за 30 с');
    expect(fake.posts(key, '/V4/PostMessagePatch')).toBe(1); // one of the two held it
    expect(fake.patches.size).toBe(1); // and Диадок made the title

    // A restarted process after the backoff: posted again under the same operationId — Диадок answers the first.
    const restarted = job(fake);
    expect(await restarted.runOnce(new Date(at.getTime() + backoffMs(1)))).toMatchObject({ sent: 1 });
    expect(fake.posts(key, '/V4/PostMessagePatch')).toBe(2);
    expect(fake.patches.size).toBe(1);
    expect(fake.posts(key)).toBe(0); // never a new message
    const request = fake.requests.filter((r) => r.path === '/V4/PostMessagePatch').at(-1)!;
    expect(request.body).toMatchObject({ BoxId: settings.boxId, MessageId: incoming.messageId, RecipientTitles: [{ ParentEntityId: incoming.entityId, NeedReceipt: false, TitleIndex: 1 }] });
    const patch = fake.patches.get(key)!;
    expect(patch.xml).toContain(`ИдФайлИнфГО="${incoming.fileId}"`);
    expect(await doc(ready.body.id)).toMatchObject({ state: 'sent', operator_message_id: incoming.messageId, operator_entity_id: patch.entityId, operator_attempts: 2, operator_error: null });

    // Later passes of two instances: nothing posted again.
    const later = new Date(at.getTime() + backoffMs(1) + 60_000);
    await Promise.all([restarted.runOnce(later), job(fake).runOnce(later)]);
    expect(fake.posts(key, '/V4/PostMessagePatch')).toBe(2);
    await restarted.close();
  });

  it('a Т2 whose Т1 was uploaded as a file waits, saying why; once that Т1 shows up in the box it is posted as its answer', async () => {
    const fake = new FakeDiadoc(settings);
    const trip = await stampedTrip(s, cards, DAY, 'Лебедев Олег Юрьевич');
    const t1 = await shipperT1(trip.trip);
    const uid = '9c8b7a6f-5e4d-4c3b-8a29-1f0e9d8c7b6a';
    const uploaded = await s.app.inject({ method: 'POST', url: `/api/etrn/incoming?uid=${uid}`, payload: t1.bytes, headers: { authorization: `Bearer ${manager.token}`, 'content-type': 'application/xml' } });
    expect(uploaded.statusCode).toBe(201);
    // Signed by the shipper (as the operator's copy would be): the Т2 cites the signature.
    await s.db.kysely.updateTable('etrn_incoming').set({ signature: 'c2lnbmF0dXJl' }).where('file_id', '=', t1.fileId).execute();
    const draft = await post('/api/documents/', { report_id: trip.trip, title: 't2' });
    const ready = await post(`/api/documents/${draft.body.id}/ready`);
    expect(ready.body, JSON.stringify(ready.body)).toMatchObject({ state: 'ready' });
    const at = new Date('2026-11-28T19:00:00Z');
    const one = job(fake);
    const first = await one.runOnce(at);
    const waiting = `Т2 отвечает на Т1 грузоотправителя ${t1.fileId}, которого нет в Диадоке (он загружен файлом): отправьте Т2 архивом за день или дождитесь Т1 грузоотправителя в ящике Диадока`;
    expect(first.errors).toContain(waiting);
    expect(await doc(ready.body.id)).toMatchObject({ state: 'ready', operator_error: waiting });
    expect(fake.posts(undefined, '/V4/PostMessagePatch') + fake.posts()).toBe(0);

    // The same file arrives through the box: not stored again, it gets the ids; the Т2 goes as its answer.
    const ids = { messageId: 'd00dfeed-1111-4222-8333-444455556666', entityId: 'd00dfeed-aaaa-4bbb-8ccc-ddddeeeeffff', signatureId: 'd00dfeed-5555-4666-8777-888899990000' };
    fake.events.push({ eventId: 'b7e2f0a1-0000-4000-8000-000000000002', indexKey: 'ik-0002', ...ids, fileName: `${t1.fileId}.xml`, uid });
    fake.content.set(ids.entityId, t1.bytes);
    fake.content.set(ids.signatureId, Buffer.from('signature'));
    expect(await one.runOnce(new Date(at.getTime() + 1000))).toMatchObject({ received: 0 });
    expect(await s.db.kysely.selectFrom('etrn_incoming').select(['operator_message_id', 'operator_entity_id']).where('report_id', '=', trip.trip).execute()).toEqual([{ operator_message_id: ids.messageId, operator_entity_id: ids.entityId }]);
    expect(await one.runOnce(new Date(at.getTime() + backoffMs(1)))).toMatchObject({ sent: 1 });
    expect(fake.requests.find((r) => r.path === '/V4/PostMessagePatch')!.body).toMatchObject({ MessageId: ids.messageId, RecipientTitles: [{ ParentEntityId: ids.entityId }] });
    expect(await doc(ready.body.id)).toMatchObject({ state: 'sent', operator_message_id: ids.messageId, operator_error: null });
    await one.close();
  });

  it('an expired token: refreshed once on a 401 and the call made again; a second 401 is reported, not looped', async () => {
    const refreshing: DiadocSettings = { ...settings, refresh: { tokenUrl: 'https://identity.example.test/connect/token', clientId: 'reis-app', clientSecret: 'app-secret', refreshToken: 'refresh-1' } };
    const fake = new FakeDiadoc(refreshing);
    fake.accepted = 'a-token-issued-later'; // ours has expired
    fake.fresh = 'a-token-issued-later';
    const title = await readyTitle('Зайцев Лев Андреевич');
    const one = startOperatorJob(s.db, refreshing, { fetch: fake.fetch, timer: false });
    expect(await one.runOnce(new Date('2026-11-28T18:00:00Z'))).toMatchObject({ sent: 1, errors: [] });
    const tokens = () => fake.requests.filter((r) => r.path === '/connect/token');
    expect(tokens()).toHaveLength(1);
    expect(tokens()[0]!.body).toEqual({ grant_type: 'refresh_token', client_id: 'reis-app', client_secret: 'app-secret', refresh_token: 'refresh-1' });
    expect(fake.requests.filter((r) => r.path === '/V3/PostMessage').map((r) => r.headers.authorization)).toEqual(['Bearer test-access-token', 'Bearer a-token-issued-later']);
    expect(fake.docs.size).toBe(1);
    expect((await doc(title.id)).state).toBe('sent');
    // The fresh token is kept for the next calls: no second refresh.
    await one.runOnce(new Date('2026-11-28T18:01:00Z'));
    expect(tokens()).toHaveLength(1);

    // The application's access lost: every token refused. Each call refreshed once and made once more, then reported.
    fake.refuseAll = true;
    const next = await readyTitle('Зуев Марк Ильич');
    const from = fake.requests.length;
    const failed = await one.runOnce(new Date('2026-11-28T18:02:00Z'));
    const pass = fake.requests.slice(from).filter((r) => r.path !== '/connect/token');
    const perCall = new Map<string, number>();
    for (const r of pass) perCall.set(`${r.path} ${JSON.stringify(r.query)}`, (perCall.get(`${r.path} ${JSON.stringify(r.query)}`) ?? 0) + 1);
    expect(Object.fromEntries(perCall)).toEqual(Object.fromEntries([...perCall.keys()].map((k) => [k, 2])));
    expect(fake.posts(next.key)).toBe(2);
    const refused = 'Диадок не принял и обновлённый токен (401): проверьте доступ приложения к ящику';
    expect(failed.errors).toContain(refused);
    expect(await doc(next.id)).toMatchObject({ state: 'ready', operator_claim: null, operator_error: refused });
    await one.close();
  });
});
