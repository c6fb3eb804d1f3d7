/**
 * The other parties' titles received (POST /etrn/incoming; docs/documents.md «Received titles»): a shipper's Т1 made
 * by our own generator for the trip, then altered, is checked against its official schema, linked to its trip and
 * compared with our facts; a file for no trip of ours is refused with nothing linked; a broken file is a 400 naming
 * the problem; the carrier's Т2 (and Т4) then cite the received Т1 (Т3) and stay valid against their schemas; another
 * company sees none of it.
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
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { makeVehicle } from '../fixtures/registers.ts';
import { nowIso } from '../../server/db/connect.ts';
import { innCheckDigits } from '../../contract/requisites.ts';
import type { IncomingTitle, ReportDocuments } from '../../contract/calls/papers.ts';
import { gatherTrip } from '../../server/papers/gather.ts';
import { etrnFacts } from '../../server/papers/map.ts';
import { tripFacts } from '../../server/trips/facts.ts';
import { buildT1Draft, buildT2 } from '../../server/etrn/titles.ts';
import { encodeCp1251 } from '../../server/etrn/xml.ts';
import { schemaPath, type SchemaTitle } from '../../server/etrn/read.ts';

const inn10 = (lead: string) => lead + innCheckDigits(lead);
const dir = mkdtempSync(join(tmpdir(), 'reis-incoming-'));

function xmllint(args: string[], name: string, bytes: Buffer) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return spawnSync('xmllint', [...args, path], { encoding: 'utf8' });
}
const validates = (title: SchemaTitle, bytes: Buffer) => xmllint(['--noout', '--schema', schemaPath(title)], 'title.xml', bytes);
const xpath = (bytes: Buffer, expr: string) => xmllint(['--xpath', expr], 'xpath.xml', bytes).stdout.trim();

describe.each(backends)('received titles: POST /etrn/incoming ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let trip: number;
  let manager: SignedInUser;
  let stranger: SignedInUser;
  /** Our own Т1 draft of the trip: what a shipper who took our draft would send back, as text. */
  let t1: { fileName: string; xml: string };
  let put: (name: string, at: string) => Promise<unknown>;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    const company = await makeCompany(s, `ТК «Рейс» ${Date.now()}`);
    const now = nowIso();
    const party = async (name: string, innLead: string, edo: string) =>
      (
        await s.db.kysely
          .insertInto('counterparties')
          .values({ company_id: company, legal_form: 'ul', name, full_name: name, inn: inn10(innLead), kpp: `${innLead.slice(0, 4)}01001`, roles: '["shipper","consignee"]', address: 'г. Москва, ул. Тверская, д. 1', phone: '+7 495 123-45-67', contact_name: 'Смирнов Павел Андреевич', edo_id: edo, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const shipper = await party('ООО «Карьер Южный»', '770708389', '2BM-7707083893-770701001-202106051207026941416');
    const consignee = await party('ООО «БетонСтрой»', '502401234', '2BM-5024012349-502401001-202106051207026941416');
    const place = async (name: string, lat: number) =>
      (await s.db.kysely.insertInto('places').values({ company_id: company, name, name_key: name.toLowerCase(), address: `Московская обл., ${name}`, lat, lon: 37.6, radius_m: 150, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    const vehicle = await makeVehicle(s, company, { plate: 'Е321КХ 77', capacity_t: 20 });
    await s.db.kysely.updateTable('vehicles').set({ ownership: 'own', volume_m3: 12 }).where('id', '=', vehicle).execute();
    const driver = await makeUser(s, 'driver', company, { name: 'Сидоров Пётр Ильич' });
    await s.db.kysely.updateTable('users').set({ license_series: '77 12', license_number: '345678', license_issued: '2020-05-14', vehicle_id: vehicle }).where('id', '=', driver.id).execute();
    await s.db.kysely
      .updateTable('companies')
      .set({ full_name: 'ООО «ТК Рейс»', inn: inn10('662301234'), kpp: '662301001', address: 'г. Екатеринбург, ул. Ленина, д. 5', phone: '+7 343 000-00-00', edo_id: '2BM-6623012345-662301001-202201010000000000001' })
      .where('id', '=', company)
      .execute();
    const task = await createTask(s, company, { date: '2026-11-26', cargo: 'Песок карьерный' });
    await s.db.kysely
      .updateTable('tasks')
      .set({ shipper_id: shipper, consignee_id: consignee, loading_place_id: await place('Карьер Южный', 55.1), unloading_place_id: await place('БСУ Восток', 55.7) })
      .where('id', '=', task)
      .execute();
    const association = await addDriver(s, task, driver.id, { transport_rate: 400 });
    const driverToken = (await withAccessToken(s, driver)).token;
    const uid = randomUUID();
    const step = (name: string, at: string, extra: Record<string, unknown> = {}) =>
      call<{ report_id: number }>(s, 'PUT', `/api/trips/${uid}/steps/${name}`, { token: driverToken, body: { association_id: association, at, position: { lat: 55.1, lon: 37.6, accuracy: 12 }, ...extra } });
    put = (name, at) => step(name, at);
    await step('loading_arrived', '2026-11-26T09:10:00+03:00');
    trip = (await step('loading_departed', '2026-11-26T09:35:00+03:00', { loading_quantity: 19.6, ticket_number: 'Т-11' })).body.report_id;
    manager = await withAccessToken(s, await makeUser(s, 'manager', company, { name: 'Волков Сергей Николаевич' }));
    stranger = await withAccessToken(s, await makeUser(s, 'manager', await makeCompany(s)));
    const facts = etrnFacts(await gatherTrip(s.db, trip), await tripFacts(s.db.kysely, trip), { name: 'Смирнов Павел Андреевич', position: 'Мастер' });
    t1 = buildT1Draft(facts, { guid: randomUUID() });
  });

  /** Our Т1 with other text, under a fresh file id (a new file of the shipper's). */
  const altered = (edit: (xml: string) => string) => {
    const fileId = t1.fileName.replace(/_[0-9a-f-]{36}$/, `_${randomUUID()}`);
    return { fileId, bytes: encodeCp1251(edit(t1.xml.replaceAll(t1.fileName, fileId))) };
  };
  const postXml = async (bytes: Buffer, token: string, query = '') => {
    const res = await s.app.inject({ method: 'POST', url: `/api/etrn/incoming${query}`, payload: bytes, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' } });
    return { status: res.statusCode, body: res.json() as IncomingTitle & { detail: string } };
  };
  const stored = async (fileId: string) => (await s.db.kysely.selectFrom('etrn_incoming').select('id').where('file_id', '=', fileId).execute()).length;

  it('a Т1 with another mass and another vehicle: linked by the waybill’s number, both differences answered and shown on the trip', async () => {
    expect(validates('t1', encodeCp1251(t1.xml)).status).toBe(0);
    const file = altered((xml) => xml.replaceAll('МасБрутЗнач="19600"', 'МасБрутЗнач="21350"').replace('МасБрутОтгр="19600"', 'МасБрутОтгр="21350"').replace('РегНомер="Е321КХ77"', 'РегНомер="В456ОР77"'));
    const res = await postXml(file.bytes, manager.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 't1', report_id: trip, linked_by: 'number', file_id: file.fileId, file_name: `${file.fileId}.xml`, signed: false });
    expect(res.body.differences).toEqual([
      { field: 'mass', label: 'Масса груза', theirs: '21,35 т', ours: '19,6 т' },
      { field: 'vehicle', label: 'Машина (госномер)', theirs: 'В456ОР77', ours: 'Е321КХ77' },
    ]);
    // The same file again is the stored one, not a second.
    const again = await postXml(file.bytes, manager.token);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
    expect(await stored(file.fileId)).toBe(1);
    const panel = await call<ReportDocuments>(s, 'GET', `/api/reports/${trip}/documents`, { token: manager.token });
    expect(panel.body.received.map((r) => [r.id, r.differences.map((d) => d.field)])).toContainEqual([res.body.id, ['mass', 'vehicle']]);
    // The file comes back as it came: windows-1251 bytes.
    const back = await s.app.inject({ method: 'GET', url: `/api/etrn/incoming/${res.body.id}`, headers: { authorization: `Bearer ${manager.token}` } });
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(file.bytes)).toBe(true);
  });

  it('without our number, the vehicle and the day link it; a Т1 for an unknown trip: a clear answer, nothing linked or stored', async () => {
    const byVehicle = altered((xml) => xml.replace(/НомерТрН="[^"]*"/, 'НомерТрН="К-77"'));
    const linked = await postXml(byVehicle.bytes, manager.token);
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ report_id: trip, linked_by: 'vehicle', differences: [] });

    const unknown = altered((xml) => xml.replace(/НомерТрН="[^"]*"/, 'НомерТрН="999-999"').replace('РегНомер="Е321КХ77"', 'РегНомер="Х001ХХ99"'));
    const res = await postXml(unknown.bytes, manager.token);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('Рейс для этого файла не найден: накладная № 999-999 — не наша; машина Х001ХХ99 за 26.11.2026 — ни в одном рейсе. Файл не сохранён и ни к одному рейсу не привязан.');
    expect(await stored(unknown.fileId)).toBe(0);
  });

  it('a file that is not XML, not a Т1/Т3 or not valid against its schema: 400 naming the problem', async () => {
    const notXml = await postXml(Buffer.from('ТН № 5, масса 20 т', 'utf8'), manager.token);
    expect(notXml.status).toBe(400);
    expect(notXml.body.detail).toBe('Файл не является XML: файл не начинается с разметки XML (ожидается кодировка windows-1251 или UTF-8)');
    const broken = await postXml(Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<Файл><Документ></Файл>', 'utf8'), manager.token);
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toMatch(/^Файл не является XML: строка 2: parser error : Opening and ending tag mismatch/);
    const invalid = await postXml(altered((xml) => xml.replace(/ НомерТрН="[^"]*"/, '')).bytes, manager.token);
    expect(invalid.status).toBe(400);
    expect(invalid.body.detail).toMatch(/^Файл не соответствует схеме ФНС \(формат 5\.01\) для титула грузоотправителя \(Т1\): строка \d+: .*НомерТрН/);
    const ours = buildT2({ ...etrnFacts(await gatherTrip(s.db, trip), await tripFacts(s.db.kysely, trip), { name: 'Волков Сергей', position: 'Диспетчер' }), uid: 'x', t1File: { fileId: 'a', date: '2026-11-26', time: '10:00:00', signature: 'MIIB' } });
    const carriers = await postXml(ours.bytes, manager.token);
    expect(carriers.status).toBe(400);
    expect(carriers.body.detail).toContain('титул перевозчика о приёме груза (Т2)');
    const doctype = await postXml(Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'), manager.token);
    expect(doctype.status).toBe(400);
    expect(doctype.body.detail).toContain('DOCTYPE');
    // Far down the file, or in an encoding whose bytes would hide it: refused all the same, before any parsing.
    const deep = await postXml(Buffer.from(`<?xml version="1.0"?><!--${' '.repeat(8000)}--><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>`), manager.token);
    expect([deep.status, deep.body.detail]).toEqual([400, 'Файл не является XML: объявление DOCTYPE не допускается форматом']);
    const utf16 = await postXml(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t1.xml.replace('windows-1251', 'UTF-16'), 'utf16le')]), manager.token);
    expect([utf16.status, utf16.body.detail]).toEqual([400, 'Файл не является XML: файл не начинается с разметки XML (ожидается кодировка windows-1251 или UTF-8)']);
    const koi8 = await postXml(Buffer.from(t1.xml.replace('windows-1251', 'KOI8-R'), 'latin1'), manager.token);
    expect([koi8.status, koi8.body.detail]).toEqual([400, 'Файл не является XML: кодировка koi8-r не допускается: ожидается windows-1251 или UTF-8']);
  });

  it('Т2 after a received Т1 (UTF-8, with its signature and УИД) cites its ИдИнфГО and validates; Т4 after a Т3 cites its ИдИнфГП', async () => {
    const uid = randomUUID();
    const file = altered((xml) => xml);
    const utf8 = Buffer.from(new TextDecoder('windows-1251').decode(file.bytes).replace('encoding="windows-1251"', 'encoding="UTF-8"'), 'utf8');
    const form = new FormData();
    form.append('file', new Blob([utf8], { type: 'application/xml' }), 'т1 от карьера.xml');
    form.append('signature', new Blob([Buffer.from('3082010a0282010100', 'hex')]), 't1.sig');
    form.append('uid', uid);
    const { payload, headers } = await encodeForm(form);
    const res = await s.app.inject({ method: 'POST', url: '/api/etrn/incoming', payload, headers: { ...headers, authorization: `Bearer ${manager.token}` } });
    expect(res.statusCode).toBe(201);
    const received = res.json() as IncomingTitle;
    expect(received).toMatchObject({ file_name: 'т1 от карьера.xml', uid, signed: true });

    const t2 = await s.app.inject({ method: 'GET', url: `/api/reports/${trip}/etrn/t2.xml`, headers: { authorization: `Bearer ${manager.token}` } });
    expect(t2.statusCode).toBe(200);
    const run = validates('t2', t2.rawPayload);
    expect(run.stderr).toContain('validates');
    expect(xpath(t2.rawPayload, 'string(//ИдИнфГО/@ИдФайлИнфГО)')).toBe(file.fileId);
    expect(xpath(t2.rawPayload, 'string(//ИдИнфГО/@ДатФайлИнфГО)')).toBe(received.file_date.split('-').reverse().join('.'));
    expect(xpath(t2.rawPayload, 'string(//ИдИнфГО/@ЭП)')).toBe(Buffer.from('3082010a0282010100', 'hex').toString('base64'));
    expect(xpath(t2.rawPayload, 'string(//СодИнфПрвПрием/@УИД_ТрН)')).toBe(uid);

    // The consignee's Т3 (the format's example with our УИД) links by the УИД; the Т4 then cites it.
    const example = readFileSync(join(process.cwd(), 'tests/fixtures/etrn-t3-consignee.xml'), 'utf8').replace('006b4a8f-fbe7-45a0-a37e-11d6b6980967', uid);
    const unsigned = await postXml(Buffer.from(example, 'utf8'), manager.token, '?name=t3.xml');
    expect(unsigned.status).toBe(201);
    expect(unsigned.body).toMatchObject({ title: 't3', report_id: trip, linked_by: 'uid', uid, signed: false, file_name: 't3.xml' });
    expect(unsigned.body.differences.map((d) => d.field)).toEqual(['cargo', 'mass', 'unloading']);
    await put('unloading_arrived', '2026-11-26T11:00:00+03:00');
    const t4 = () => s.app.inject({ method: 'GET', url: `/api/reports/${trip}/etrn/t4.xml`, headers: { authorization: `Bearer ${manager.token}` } });
    // Without the Т3's signature the Т4 is not made, and says what it waits for.
    expect((await t4()).statusCode).toBe(409);
    expect((await t4()).json().detail).toContain('Подписанный титул грузополучателя (Т3)');
    const signedForm = new FormData();
    const t3Id = 'ON_TRNACLGRPO_A_B_C_0_20260626_' + randomUUID();
    signedForm.append('file', new Blob([example.replace(/ИдФайл="[^"]*"/, `ИдФайл="${t3Id}"`)]), 't3.xml');
    signedForm.append('signature', 'MIIBsignature==');
    const form3 = await encodeForm(signedForm);
    const signed = await s.app.inject({ method: 'POST', url: '/api/etrn/incoming', payload: form3.payload, headers: { ...form3.headers, authorization: `Bearer ${manager.token}` } });
    expect(signed.statusCode).toBe(201);
    const made = await t4();
    expect(made.statusCode).toBe(200);
    expect(validates('t4', made.rawPayload).stderr).toContain('validates');
    expect(xpath(made.rawPayload, 'string(//ИдИнфГП/@ИдФайлИнфГП)')).toBe(t3Id);
    expect(xpath(made.rawPayload, 'string(//ИдИнфГП/@ЭП)')).toBe('MIIBsignature==');
    expect(xpath(made.rawPayload, 'string(//СодПрвВыд/@УИД_ТрН)')).toBe(uid);
  });

  it('another company: its managers neither see a received title nor link a file to this trip', async () => {
    const panel = await call<ReportDocuments>(s, 'GET', `/api/reports/${trip}/documents`, { token: manager.token });
    const id = panel.body.received[0]?.id as number;
    const theirs = await s.app.inject({ method: 'GET', url: `/api/etrn/incoming/${id}`, headers: { authorization: `Bearer ${stranger.token}` } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().detail).toBe('Полученный титул не найден');
    const file = altered((xml) => xml);
    const res = await postXml(file.bytes, stranger.token);
    expect(res.status).toBe(409);
    expect(await stored(file.fileId)).toBe(0);
  });
});
