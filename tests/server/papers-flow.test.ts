/**
 * Issue 33 end to end on the server: a trip stamped through the phone's calls (PUT /trips/{uid}/steps/…) → its paper
 * waybill read back → our Т1 draft signed by the shipper and accepted with its УИД → Т2 made, valid against the
 * official schema, accepted → the consignee's Т3, carrying that УИД, linked to the trip → Т4 made, valid, accepted →
 * the trip's «Документы» panel and the driver's card say «принят» with the УИД and QR.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { encodeForm } from '../fixtures/forms.ts';
import { carrierCards, SHIPPER_EDO, stampedTrip, type StampedTrip } from '../fixtures/papers.ts';
import { schemaPath, type SchemaTitle } from '../../server/etrn/read.ts';
import type { AnswersResult, DocumentItem } from '../../contract/documents.ts';
import type { IncomingTitle, ReportDocuments } from '../../contract/calls/papers.ts';
import type { Page, Task } from '../../contract/entities.ts';
import type { TripSettings, TripStepAnswer } from '../../contract/trips.ts';

const DAY = '2026-11-25';
const dir = mkdtempSync(join(tmpdir(), 'reis-papers-flow-'));

/** `command` with `args`, the bytes written to a file whose path takes the place of `{}`. */
function run(command: string, args: string[], name: string, bytes: Buffer) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return spawnSync(command, args.map((a) => (a === '{}' ? path : a)), { encoding: 'utf8' });
}
const validates = (title: SchemaTitle, bytes: Buffer) => run('xmllint', ['--noout', '--schema', schemaPath(title), '{}'], `${title}.xml`, bytes).stderr;

describe.each(backends)('a trip’s papers end to end ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let trip: StampedTrip;
  let manager: SignedInUser;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    const company = await makeCompany(s, `ТК «Рейс» ${Date.now()}`);
    const cards = await carrierCards(s, company, { shipperEdo: SHIPPER_EDO, carrierEdo: true });
    trip = await stampedTrip(s, cards, DAY);
    manager = await withAccessToken(s, await makeUser(s, 'manager', company, { name: 'Волков Сергей Николаевич' }));
  });

  const get = async (url: string) => {
    const res = await s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${manager.token}` } });
    return { status: res.statusCode, bytes: res.rawPayload };
  };
  const post = async <T = DocumentItem>(url: string, body?: unknown) => (await call<T>(s, 'POST', url, { token: manager.token, body })).body;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

  /** A title taken in, made ready (its frozen file valid against its schema), sent in the day's zip, accepted. */
  async function through(title: 't1' | 't2' | 't4', answer: Record<string, string>, reportId = trip.trip, day = DAY): Promise<DocumentItem> {
    const draft = await post('/api/documents/', { report_id: reportId, title });
    const ready = await post(`/api/documents/${draft.id}/ready`);
    expect([title, ready.state]).toEqual([title, 'ready']);
    const file = await get(`/api/documents/${draft.id}/file.xml`);
    expect(validates(title, file.bytes)).toContain('validates');
    expect((await get(`/api/documents/export?date=${day}`)).status).toBe(200);
    const applied = await post<AnswersResult>('/api/documents/answers', { files: [{ name: `${title}.json`, data: b64({ file: ready.file_name, status: 'accepted', ...answer }) }] });
    expect(applied.outcomes.map((o) => o.outcome)).toEqual(['accepted']);
    return ready;
  }

  /** The consignee's Т3 carrying only the УИД, uploaded: [status, the trip linked, how]. */
  async function receiveT3(uid: string) {
    const t3 = readFileSync(join(process.cwd(), 'tests/fixtures/etrn-t3-consignee.xml'), 'utf8')
      .replace('006b4a8f-fbe7-45a0-a37e-11d6b6980967', uid)
      .replace(/ИдФайл="[^"]*"/, `ИдФайл="ON_TRNACLGRPO_A_B_C_0_20261125_${randomUUID()}"`);
    const form = new FormData();
    form.append('file', new Blob([t3]), 't3.xml');
    form.append('signature', 'MIIBsignature==');
    const encoded = await encodeForm(form);
    const received = await s.app.inject({ method: 'POST', url: '/api/etrn/incoming', payload: encoded.payload, headers: { ...encoded.headers, authorization: `Bearer ${manager.token}` } });
    return [received.statusCode, received.json<IncomingTitle>().report_id, received.json<IncomingTitle>().linked_by];
  }

  it('stamped on the phone → the paper waybill, Т1 → Т2 → Т3 received by its УИД → Т4, each valid and accepted → the driver sees «принят» with the УИД and QR', async () => {
    const pdf = await get(`/api/reports/${trip.trip}/waybill.pdf`);
    expect(pdf.status).toBe(200);
    const text = run('pdftotext', ['-layout', '{}', '-'], 'waybill.pdf', pdf.bytes);
    expect(text.status).toBe(0);
    for (const fact of ['ООО «Карьер Северный»', 'ООО «СтройДом»', 'А123ВС 77', 'Петров Иван Сергеевич']) expect(text.stdout.replace(/\s+/g, ' ')).toContain(fact);

    const uid = randomUUID();
    const qr = `https://epd.example/trn/${uid}`;
    await through('t1', { uid, qr, signature: Buffer.from('подпись грузоотправителя').toString('base64') });
    const t2 = await through('t2', { uid, qr });

    // The consignee's Т3 carries only the УИД: it links to the trip through our own accepted Т1.
    expect(await receiveT3(uid)).toEqual([201, trip.trip, 'uid']);
    const t4 = await through('t4', { uid, qr });
    expect(t4.file_name).toMatch(/^ON_TRNACLPVYN_/);
    expect(t2.file_name).toMatch(/^ON_TRNACLPPRIN_/);

    const panel = (await call<ReportDocuments>(s, 'GET', `/api/reports/${trip.trip}/documents`, { token: manager.token })).body;
    expect(panel.titles.map((t) => [t.title, t.exchange?.state, t.exchange?.uid])).toEqual([
      ['t1', 'accepted', uid],
      ['t2', 'accepted', uid],
      ['t4', 'accepted', uid],
    ]);
    const card = await call<Page<Task>>(s, 'GET', '/api/tasks/assigned/', { token: trip.driver.token });
    expect(card.body.items.find((t) => t.id === trip.task)?.waybills).toEqual([{ report_id: trip.trip, trip_uid: expect.any(String), state: 'accepted', title: expect.any(String), uid, qr }]);
  });

  it('the driver confirms by his ПЭП on the phone («Груз принят к перевозке», «Груз сдан»): recorded once, shown on the panel; Т2/Т4 name him as the signer and stay valid; without the setting nothing changes', async () => {
    const company = await makeCompany(s, `ТК «ПЭП» ${Date.now()}`);
    const admin = await withAccessToken(s, await makeUser(s, 'admin', company));
    const settings = (await call<TripSettings>(s, 'GET', `/api/companies/${company}/trip-settings`, { token: admin.token })).body;
    expect(settings.driver_confirms).toBe(false);
    const on = await call<TripSettings>(s, 'PUT', `/api/companies/${company}/trip-settings`, { token: admin.token, body: { ...settings, driver_confirms: true } });
    expect([on.status, on.body.driver_confirms]).toEqual([200, true]);
    // A client that predates the switch leaves it as stored.
    const { driver_confirms: _left, ...older } = on.body;
    expect((await call<TripSettings>(s, 'PUT', `/api/companies/${company}/trip-settings`, { token: admin.token, body: { ...older, long_wait_minutes: 50 } })).body.driver_confirms).toBe(true);

    const cards = await carrierCards(s, company, { shipperEdo: SHIPPER_EDO, carrierEdo: true });
    const day = '2026-11-26';
    const stamped = await stampedTrip(s, cards, day, 'Сидоров Пётр Алексеевич', { loading: 'Борт кузова помят', unloading: null });
    const confirmations = () => s.db.kysely.selectFrom('trip_confirmations').selectAll().where('report_id', '=', stamped.trip).orderBy('step').execute();
    expect((await confirmations()).map((c) => [c.step, c.driver_id, c.at, c.lat, Number(c.quantity), c.remarks])).toEqual([
      ['loading_departed', stamped.driver.id, `${day}T07:35:00+03:00`, 56.1, 19.6, 'Борт кузова помят'],
      ['unloading_departed', stamped.driver.id, `${day}T08:55:00+03:00`, 56.1, 19.5, null],
    ]);
    // The outbox's replay of the step (a lost answer): 200 replay, no second row.
    const replay = await call<TripStepAnswer>(s, 'PUT', `/api/trips/${stamped.uid}/steps/loading_departed`, {
      token: stamped.driver.token,
      body: { association_id: stamped.association, at: `${day}T07:35:00+03:00`, loading_quantity: 19.6, driver_confirmation: { remarks: 'ещё раз' } },
    });
    expect([replay.status, replay.body.replay]).toEqual([200, true]);
    expect((await confirmations()).map((c) => c.remarks)).toEqual(['Борт кузова помят', null]);
    // Only on the two departures.
    const wrong = await call<{ detail: string }>(s, 'PUT', `/api/trips/${stamped.uid}/steps/loading_arrived`, {
      token: stamped.driver.token,
      body: { association_id: stamped.association, at: `${day}T07:10:00+03:00`, driver_confirmation: {} },
    });
    expect([wrong.status, wrong.body.detail]).toEqual([400, 'driver_confirmation: только на шаге «Загружен, выезжаю» или «Выгружен»']);

    const boss = await withAccessToken(s, await makeUser(s, 'manager', company, { name: 'Волков Сергей Николаевич' }));
    const panel = async () => (await call<ReportDocuments>(s, 'GET', `/api/reports/${stamped.trip}/documents`, { token: boss.token })).body;
    expect((await panel()).driver_confirmed.map((c) => [c.step, c.driver_name, c.at])).toEqual([
      ['loading_departed', 'Сидоров Пётр Алексеевич', `${day}T07:35:00+03:00`],
      ['unloading_departed', 'Сидоров Пётр Алексеевич', `${day}T08:55:00+03:00`],
    ]);

    const asBoss = manager;
    manager = boss;
    try {
      const uid = randomUUID();
      await through('t1', { uid, qr: uid, signature: Buffer.from('подпись').toString('base64') }, stamped.trip, day);
      const t2 = await through('t2', { uid, qr: uid }, stamped.trip, day);
      expect(await receiveT3(uid)).toEqual([201, stamped.trip, 'uid']);
      const t4 = await through('t4', { uid, qr: uid }, stamped.trip, day);
      const xml = async (d: DocumentItem) => new TextDecoder('windows-1251').decode((await get(`/api/documents/${d.id}/file.xml`)).bytes);
      const t2Xml = await xml(t2);
      const t4Xml = await xml(t4);
      const driverSigner = '<Подписант СтатПодп="1" Должн="Водитель"><ФИО Фамилия="Сидоров" Имя="Пётр" Отчество="Алексеевич"/></Подписант>';
      expect(t2Xml.replace(/>\s+</g, '><')).toContain(driverSigner);
      expect(t4Xml.replace(/>\s+</g, '><')).toContain(driverSigner);
      expect(t2Xml).toContain('Значение="Простая электронная подпись водителя"');
      expect(t2Xml).toContain('Значение="Груз принят к перевозке: Сидоров Пётр Алексеевич, 26.11.2026T07:35:00+03:00"');
      expect(t2Xml).toContain('Борт кузова помят');
      expect(t4Xml).toContain('Значение="Груз сдан: Сидоров Пётр Алексеевич, 26.11.2026T08:55:00+03:00"');

      // Without the setting: the staff member who prepares the title signs it, as before; the panel shows none.
      await call(s, 'PUT', `/api/companies/${company}/trip-settings`, { token: admin.token, body: { ...on.body, driver_confirms: false } });
      const plain = await get(`/api/reports/${stamped.trip}/etrn/t2.xml`);
      const plainXml = new TextDecoder('windows-1251').decode(plain.bytes);
      expect(validates('t2', plain.bytes)).toContain('validates');
      expect(plainXml.replace(/>\s+</g, '><')).toContain('<ФИО Фамилия="Волков" Имя="Сергей" Отчество="Николаевич"/>');
      expect(plainXml).not.toContain('Водитель');
      expect((await panel()).driver_confirmed).toEqual([]);
    } finally {
      manager = asBoss;
    }
  });
});
