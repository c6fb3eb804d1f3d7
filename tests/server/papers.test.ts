/**
 * A trip's papers from the database (server/papers/gather.ts, map.ts): the registers' cards, the carrier's
 * requisites, the driver and his fleet vehicle read once, then turned into the ЭТрН's facts — what is missing named
 * with its card, and once the cards are filled, a Т1 draft the official schema accepts (xmllint).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import type { ReportDocuments } from '../../contract/calls/papers.ts';
import { carrierCards, inn10, SHIPPER_EDO, stampedTrip } from '../fixtures/papers.ts';
import type { Vehicle } from '../../contract/registers.ts';
import { gatherTrip } from '../../server/papers/gather.ts';
import { etrnFacts, paperWaybillFacts } from '../../server/papers/map.ts';
import { missingFacts } from '../../server/etrn/missing.ts';
import { buildT1Draft } from '../../server/etrn/titles.ts';
import type { TripFacts } from '../../contract/trips.ts';

const stamp = (at: string) => ({ at, received_at: at, position: null, source: 'tap' as const, distance_m: null });
const TRIP: TripFacts = {
  trip_uid: null,
  timeline: {
    loading_arrived: stamp('2026-11-27T07:10:00.000Z'),
    loading_departed: stamp('2026-11-27T07:35:00.000Z'),
    unloading_arrived: stamp('2026-11-27T08:40:00.000Z'),
    unloading_departed: stamp('2026-11-27T08:55:00.000Z'),
  },
  waits: { loading_min: 25, unloading_min: 15, travel_min: 65, cycle_min: null },
  acceptance: { kind: 'none', receiver_name: null, receiver_position: null, signature_url: null, refused_reason: null, at: null, position: null, scope: null },
  after_the_fact: false,
};

describe.each(backends)('a trip’s papers from the database ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let company: number;
  let report: number;
  let trip: number;
  let shipper: number;
  let driverId: number;
  let taskId: number;
  let manager: SignedInUser;
  let stranger: SignedInUser;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    company = await makeCompany(s, `ТК «Рейс» ${Date.now()}`);
    const cards = await carrierCards(s, company, { shipperEdo: null, carrierEdo: false });
    shipper = cards.shipper;
    // A trip stamped step by step on the phone, the receiver refusing to sign.
    const stamped = await stampedTrip(s, cards, '2026-11-27');
    driverId = stamped.driver.id;
    taskId = stamped.task;
    report = stamped.load;
    trip = stamped.trip;
    manager = await withAccessToken(s, await makeUser(s, 'manager', company, { name: 'Волков Сергей Николаевич' }));
    stranger = await withAccessToken(s, await makeUser(s, 'manager', await makeCompany(s)));
  });

  const pdfText = (bytes: Buffer) => {
    const dir = mkdtempSync(join(tmpdir(), 'reis-papers-pdf-'));
    const path = join(dir, 'paper.pdf');
    writeFileSync(path, bytes);
    const run = spawnSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    return run.stdout;
  };
  const download = async (url: string, token: string) => {
    const res = await s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, type: String(res.headers['content-type']), body: res.rawPayload, json: () => res.json() as { detail: string } };
  };

  it('reads the cards once and names what the shipper’s Т1 still lacks, with the card that holds it', async () => {
    const base = await gatherTrip(s.db, report);
    expect(base).toMatchObject({
      task: { cargo: 'Щебень гранитный 5–20', date: '2026-11-27' },
      shipper: { name: 'ООО «Карьер Северный»', edo_id: null },
      loading: { name: 'Карьер Северный' },
      vehicle: { plate: 'А123ВС 77', plate_key: 'А123ВС77' },
      driver: { id: driverId, license_series: '77 12', license_number: '345678' },
    });
    const facts = etrnFacts(base, TRIP, { name: 'Волков Сергей Николаевич', position: 'Диспетчер' });
    const missing = missingFacts('t1', facts);
    // The shipper's ЭДО id and the carrier's are the only gaps: each names the card to fill.
    expect(missing.map((m) => [m.field, m.card, m.id])).toEqual([
      ['shipper.edoId', 'counterparty', shipper],
      ['carrier.edoId', 'company', null],
    ]);
    const paper = paperWaybillFacts(base, TRIP, null);
    expect(paper).toMatchObject({ shipper: { inn: base.shipper?.inn }, vehicle: { plate: 'А123ВС 77' }, loading: { address: 'Московская обл., Карьер Северный', quantity: 19.6 } });
  });

  it('once the cards are filled, the Т1 draft made from the database is valid against the official schema', async () => {
    await s.db.kysely.updateTable('counterparties').set({ edo_id: '2BM-7707083893-770701001-202106051207026941416' }).where('id', '=', shipper).execute();
    // The carrier's ЭДО id is one of its requisites, set by an admin on the company's card.
    const admin = await withAccessToken(s, await makeUser(s, 'admin', company));
    const set = await call<{ edo_id: string }>(s, 'PUT', `/api/companies/${company}`, { token: admin.token, body: { name: (await s.db.kysely.selectFrom('companies').select('name').where('id', '=', company).executeTakeFirstOrThrow()).name, edo_id: '2BM-6623012345-662301001-202201010000000000001' } });
    expect(set.status).toBe(200);
    expect(set.body.edo_id).toBe('2BM-6623012345-662301001-202201010000000000001');
    const facts = etrnFacts(await gatherTrip(s.db, report), TRIP, { name: 'Волков Сергей Николаевич', position: 'Диспетчер' });
    expect(missingFacts('t1', facts)).toEqual([]);
    const file = buildT1Draft(facts);
    const dir = mkdtempSync(join(tmpdir(), 'reis-papers-'));
    const path = join(dir, `${file.fileName}.xml`);
    writeFileSync(path, file.bytes);
    const run = spawnSync('xmllint', ['--noout', '--schema', join(process.cwd(), 'server/etrn/schemas/etrn-t1-shipper.xsd'), path], { encoding: 'utf8' });
    expect(run.stderr).toContain('validates');
    expect(run.status).toBe(0);
    // The Т2 waits for the shipper's signed Т1 and the waybill's УИД: said, not made half-filled.
    expect(missingFacts('t2', facts).map((m) => m.card)).toContain('documents');
  });

  it('the calls: the «Документы» panel says what each title lacks; the Т1 draft as windows-1251 XML; the papers as PDF in Cyrillic; another company’s trip is 404', async () => {
    await s.db.kysely.updateTable('counterparties').set({ edo_id: null }).where('id', '=', shipper).execute();
    const panel = await call<ReportDocuments>(s, 'GET', `/api/reports/${trip}/documents`, { token: manager.token });
    expect(panel.status).toBe(200);
    const t1 = panel.body.titles.find((t) => t.title === 't1');
    expect(t1?.ready).toBe(false);
    expect(t1?.missing.map((m) => [m.field, m.card, m.id])).toEqual([['shipper.edoId', 'counterparty', shipper]]);
    expect(panel.body.titles.find((t) => t.title === 't2')?.ready).toBe(false);

    const refused = await download(`/api/reports/${trip}/etrn/t1.xml`, manager.token);
    expect(refused.status).toBe(409);
    expect(refused.json().detail).toContain('Не хватает сведений для титула грузоотправителя (Т1)');
    await s.db.kysely.updateTable('counterparties').set({ edo_id: '2BM-7707083893-770701001-202106051207026941416' }).where('id', '=', shipper).execute();
    const xml = await download(`/api/reports/${trip}/etrn/t1.xml`, manager.token);
    expect(xml.status).toBe(200);
    expect(xml.type).toContain('windows-1251');
    expect(xml.body.subarray(0, 60).toString('latin1')).toContain('encoding="windows-1251"');
    expect((await download(`/api/reports/${trip}/etrn/t3.xml`, manager.token)).status).toBe(400);

    const pod = await download(`/api/reports/${trip}/pod.pdf`, manager.token);
    expect(pod.status).toBe(200);
    expect(pod.type).toContain('application/pdf');
    const podText = pdfText(pod.body);
    for (const fact of ['Петров Иван Сергеевич', 'А123ВС 77', 'Т-4471', 'Щебень гранитный 5–20', 'Карьер Северный', 'отказался подписать', 'Прораба нет на объекте', '07:10', '08:55']) expect(podText).toContain(fact);
    expect(podText).not.toContain('задним числом');
    const waybill = pdfText((await download(`/api/reports/${trip}/waybill.pdf`, manager.token)).body);
    for (const fact of ['ООО «Карьер Северный»', 'ООО «СтройДом»', 'ООО «ТК Рейс»', inn10('662301234'), 'А123ВС 77', 'Петров Иван Сергеевич']) expect(waybill).toContain(fact);

    for (const path of ['documents', 'pod.pdf', 'waybill.pdf', 'etrn/t1.xml']) expect((await download(`/api/reports/${trip}/${path}`, stranger.token)).status).toBe(404);
  });

  it('a leased truck with its own trailer and a driver with his ИНН, filled on their cards: the panel stops naming them, the Т1 carries each unit’s ownership and validates, the paper waybill shows them', async () => {
    await s.db.kysely.updateTable('counterparties').set({ edo_id: SHIPPER_EDO }).where('id', '=', shipper).execute();
    const vehicle = (await gatherTrip(s.db, report)).vehicle!;
    const card = { plate: vehicle.plate, make: 'КАМАЗ', model: '65115', body_type: 'dump_truck', ownership: 'leasing', capacity_t: 20, volume_m3: 12, trailer_plate: 'АВ 1234 77' };
    const put = (body: object) => call<Vehicle>(s, 'PUT', `/api/vehicles/${vehicle.id}`, { token: manager.token, body });
    expect((await put(card)).status).toBe(200);
    const t1Missing = async () => (await call<ReportDocuments>(s, 'GET', `/api/reports/${trip}/documents`, { token: manager.token })).body.titles.find((t) => t.title === 't1')?.missing.map((m) => [m.field, m.card]);
    expect(await t1Missing()).toEqual([
      ['vehicle.leaseDocument', 'vehicle'],
      ['vehicle.lessorInn', 'vehicle'],
      ['vehicle.trailer.type', 'vehicle'],
      ['vehicle.trailer.make', 'vehicle'],
      ['vehicle.trailer.capacityT', 'vehicle'],
      ['vehicle.trailer.volumeM3', 'vehicle'],
      // The trailer is held on its own (migration 051): not told, it is asked, not taken from the truck.
      ['vehicle.trailer.ownership', 'vehicle'],
    ]);
    // A lessor's ИНН with a wrong check digit is refused naming the field.
    const lessor = inn10('781001234');
    const badLessor = await put({ ...card, lessor_inn: `${lessor.slice(0, 9)}${(Number(lessor[9]) + 1) % 10}` });
    expect(badLessor.status).toBe(400);
    expect((badLessor.body as unknown as { detail: string }).detail).toContain('ИНН арендодателя: неверная контрольная цифра');
    const badTrailer = await put({ ...card, trailer_ownership: 'rent', trailer_lessor_inn: '7707083894' });
    expect(badTrailer.status).toBe(400);
    expect((badTrailer.body as unknown as { detail: string }).detail).toBe('ИНН арендодателя прицепа: неверная контрольная цифра');
    expect(((await put({ ...card, trailer_ownership: 'mine' })).body as unknown as { detail: string }).detail).toBe(
      'Владение прицепом: ожидается одно из own, rent, leasing, free_use',
    );
    expect(((await put({ ...card, trailer_lease_doc_date: '01.03.2025' })).body as unknown as { detail: string }).detail).toBe(
      'Дата документа владения прицепом: ожидается дата ГГГГ-ММ-ДД',
    );
    const filled = {
      ...card,
      ...{ lease_doc_number: 'Л-2025/77', lease_doc_date: '2025-03-01', lessor_inn: lessor },
      ...{ trailer_type: 'Полуприцеп', trailer_make: 'НефАЗ 9509', trailer_capacity_t: 30, trailer_volume_m3: 28, trailer_ownership: 'own' },
    };
    const saved = await put(filled);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ lease_doc_name: null, lease_doc_number: 'Л-2025/77', lease_doc_date: '2025-03-01', lessor_inn: lessor, trailer_make: 'НефАЗ 9509', trailer_capacity_t: 30 });
    expect(saved.body).toMatchObject({ trailer_ownership: 'own', trailer_lease_doc_number: null, trailer_lessor_inn: null });

    // The driver's ИНН: a person's 12 digits with both check digits; each wrong one named, the right one kept.
    const driverInn = inn10('7701234567');
    const wrong = (i: 10 | 11) => driverInn.slice(0, i) + String((Number(driverInn[i]) + 1) % 10) + driverInn.slice(i + 1);
    for (const inn of [wrong(10), wrong(11), '7701234567']) {
      const res = await call(s, 'PUT', `/api/users/drivers/${driverId}/`, { token: manager.token, body: { inn } });
      expect(res.status).toBe(400);
      expect((res.body as { detail: string }).detail).toContain(inn.length === 12 ? 'ИНН водителя: неверная контрольная цифра' : 'ИНН водителя: должен состоять из 12 цифр');
    }
    const driver = await call<{ inn: string | null }>(s, 'PUT', `/api/users/drivers/${driverId}/`, { token: manager.token, body: { inn: driverInn } });
    expect(driver.status).toBe(200);
    expect(driver.body.inn).toBe(driverInn);

    expect(await t1Missing()).toEqual([]);
    const xml = await download(`/api/reports/${trip}/etrn/t1.xml`, manager.token);
    expect(xml.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'reis-papers-'));
    const path = join(dir, 't1.xml');
    writeFileSync(path, xml.body);
    const run = spawnSync('xmllint', ['--noout', '--schema', join(process.cwd(), 'server/etrn/schemas/etrn-t1-shipper.xsd'), path], { encoding: 'utf8' });
    expect(run.stderr).toContain('validates');
    const text = new TextDecoder('windows-1251').decode(xml.body).replace(/>\s+</g, '><');
    expect(text).toContain(`<ОснАрЛиз НаимДок="Договор лизинга" НомерДок="Л-2025/77" ДатаДок="01.03.2025"><ИдРекСост><ИННЮЛ>${lessor}</ИННЮЛ>`);
    // The truck is leased (4, with its document), the trailer the carrier's own (1, none).
    expect(text).toMatch(/<ТС РегНомер="А123ВС77" ТипВлад="4">/);
    expect(text).toMatch(/<Прицеп РегНомер="АВ123477" ТипВлад="1"><ПарТС Тип="Полуприцеп" Марка="НефАЗ 9509" Грузопод="30" Вместим="28"\/><\/Прицеп>/);
    expect(text).toContain(`ИННФЛ="${driverInn}"`);

    const waybill = pdfText((await download(`/api/reports/${trip}/waybill.pdf`, manager.token)).body);
    for (const fact of ['Лизинг', `Договор лизинга № Л-2025/77 от 01.03.2025, арендодатель ИНН ${lessor}`, 'Полуприцеп НефАЗ 9509', '30 т', '28 м³', 'АВ1234 77', driverInn]) expect(waybill.replace(/\s+/g, ' ')).toContain(fact);
    // The trailer's row (its value above its caption): the carrier's own, no document.
    expect(waybill.replace(/\s+/g, ' ')).toContain('Собственность Тип владения прицепом Реквизиты документа — основания владения прицепом');
  });

  it('a trailer leased apart from the truck: each carries its own document and lessor in the Т1 (valid) and on paper; a licence with its series in СерВУ and НомВУ', async () => {
    const vehicle = (await gatherTrip(s.db, report)).vehicle!;
    const lessor = inn10('781001234');
    const trailerLessor = inn10('502701234');
    const card = {
      ...{ plate: vehicle.plate, make: 'КАМАЗ', model: '65115', body_type: 'dump_truck', ownership: 'own', capacity_t: 20, volume_m3: 12, trailer_plate: 'АВ 1234 77' },
      ...{ trailer_type: 'Полуприцеп', trailer_make: 'НефАЗ 9509', trailer_capacity_t: 30, trailer_volume_m3: 28, trailer_ownership: 'rent' },
      ...{ lease_doc_number: 'Л-2025/77', lease_doc_date: '2025-03-01', lessor_inn: lessor },
    };
    const put = (body: object) => call<Vehicle>(s, 'PUT', `/api/vehicles/${vehicle.id}`, { token: manager.token, body });
    expect((await put(card)).status).toBe(200);
    const t1Missing = async () => (await call<ReportDocuments>(s, 'GET', `/api/reports/${trip}/documents`, { token: manager.token })).body.titles.find((t) => t.title === 't1')?.missing.map((m) => [m.field, m.card]);
    // The truck's own: its lease fields are not the trailer's. The trailer's document is asked for.
    expect(await t1Missing()).toEqual([
      ['vehicle.trailer.leaseDocument', 'vehicle'],
      ['vehicle.trailer.lessorInn', 'vehicle'],
    ]);
    const trailerDoc = { trailer_lease_doc_name: 'Договор аренды прицепа', trailer_lease_doc_number: 'П-9', trailer_lease_doc_date: '2024-06-10', trailer_lessor_inn: trailerLessor };
    expect((await put({ ...card, ...trailerDoc })).body).toMatchObject(trailerDoc);
    // The licence: series and number apart; the whole text still sets both; a bad one names its field.
    const licence = (body: object) => call<{ license_series: string | null; license_number: string | null; detail?: string }>(s, 'PUT', `/api/users/drivers/${driverId}/`, { token: manager.token, body });
    expect((await licence({ license_series: '99АВ', license_number: '123 456', inn: null })).body).toMatchObject({ license_series: '99 АВ', license_number: '123456' });
    expect((await licence({ license_series: '9' })).body.detail).toBe('Серия удостоверения: ожидается 4 знака — 2 цифры и 2 цифры или буквы, например 77 12');
    expect((await licence({ license_number: '12345' })).body.detail).toBe('Номер удостоверения: ожидается 6 цифр, например 345678 (или серия и номер: 77 12 345678)');
    expect((await licence({ license_number: '77 12-345678' })).body).toMatchObject({ license_series: '77 12', license_number: '345678' });
    expect((await licence({ license_series: '99 АВ', license_number: '123456' })).body).toMatchObject({ license_series: '99 АВ', license_number: '123456' });
    expect(await t1Missing()).toEqual([]);

    const xml = await download(`/api/reports/${trip}/etrn/t1.xml`, manager.token);
    expect(xml.status).toBe(200);
    const path = join(mkdtempSync(join(tmpdir(), 'reis-papers-')), 't1.xml');
    writeFileSync(path, xml.body);
    const run = spawnSync('xmllint', ['--noout', '--schema', join(process.cwd(), 'server/etrn/schemas/etrn-t1-shipper.xsd'), path], { encoding: 'utf8' });
    expect(run.stderr).toContain('validates');
    const text = new TextDecoder('windows-1251').decode(xml.body).replace(/>\s+</g, '><');
    expect(text).toMatch(/<ТС РегНомер="А123ВС77" ТипВлад="1"><ПарТС [^>]*\/><\/ТС>/);
    expect(text).toContain(
      `<Прицеп РегНомер="АВ123477" ТипВлад="3"><ПарТС Тип="Полуприцеп" Марка="НефАЗ 9509" Грузопод="30" Вместим="28"/><ОснАрЛиз НаимДок="Договор аренды прицепа" НомерДок="П-9" ДатаДок="10.06.2024"><ИдРекСост><ИННЮЛ>${trailerLessor}</ИННЮЛ>`,
    );
    expect(text).toMatch(/<СвВодит [^>]*НомВУ="123456" СерВУ="99 АВ" ДатаВыдВУ="14.05.2020"/);

    const waybill = pdfText((await download(`/api/reports/${trip}/waybill.pdf`, manager.token)).body).replace(/\s+/g, ' ');
    expect(waybill).toContain(`Договор аренды прицепа № П-9 от 10.06.2024, арендодатель ИНН ${trailerLessor}`);
    expect(waybill).toContain('99 АВ 123456 от');
    expect(waybill).toContain('Аренда Договор аренды прицепа № П-9');
    expect(waybill).not.toContain(`арендодатель ИНН ${lessor}`);
  });

  it('the cargo’s state and packaging, set on its task by staff: in the Т1 (valid) and the paper waybill; bulk when none; bad input 400 naming the field', async () => {
    const setTask = (body: object) => call<{ cargo_state: string | null; cargo_packaging: string | null; cargo_package_code: string | null; detail?: string }>(s, 'PUT', `/api/tasks/${taskId}/`, { token: manager.token, body });
    const t1 = async () => {
      const xml = await download(`/api/reports/${trip}/etrn/t1.xml`, manager.token);
      expect(xml.status).toBe(200);
      const path = join(mkdtempSync(join(tmpdir(), 'reis-papers-')), 't1.xml');
      writeFileSync(path, xml.body);
      expect(spawnSync('xmllint', ['--noout', '--schema', join(process.cwd(), 'server/etrn/schemas/etrn-t1-shipper.xsd'), path], { encoding: 'utf8' }).stderr).toContain('validates');
      return new TextDecoder('windows-1251').decode(xml.body);
    };
    expect(await t1()).toMatch(/СостГруз="Сыпучий" СпУпак="Навалом" ВидТар="VY"/);
    expect((await setTask({ cargo_package_code: 'мешок' })).body.detail).toBe('Вид тары: ожидается код ОКВГУМ из двух латинских букв или цифр, например VY');
    expect((await setTask({ cargo_state: 'x'.repeat(301) })).body.detail).toBe('Состояние груза: не длиннее 300 символов');
    const saved = await setTask({ cargo_state: 'Твёрдый, порошкообразный', cargo_packaging: 'В мешках по 50 кг', cargo_package_code: 'bg' });
    expect(saved.body).toMatchObject({ cargo_state: 'Твёрдый, порошкообразный', cargo_packaging: 'В мешках по 50 кг', cargo_package_code: 'BG' });
    expect(await t1()).toMatch(/СостГруз="Твёрдый, порошкообразный" СпУпак="В мешках по 50 кг" ВидТар="BG"/);
    const waybill = pdfText((await download(`/api/reports/${trip}/waybill.pdf`, manager.token)).body).replace(/\s+/g, ' ');
    expect(waybill).toContain('В мешках по 50 кг; вид тары BG Твёрдый, порошкообразный');
    // A packaging without its code is not made up: the panel asks for it on the task.
    await setTask({ cargo_package_code: '' });
    const panel = await call<ReportDocuments>(s, 'GET', `/api/reports/${trip}/documents`, { token: manager.token });
    expect(panel.body.titles.find((t) => t.title === 't1')?.missing.map((m) => [m.field, m.card])).toEqual([['cargo.packageCode', 'task']]);
    await setTask({ cargo_state: null, cargo_packaging: '', cargo_package_code: null });
    expect(await t1()).toMatch(/СостГруз="Сыпучий" СпУпак="Навалом" ВидТар="VY"/);
  });

  it('a task’s and a day’s waybills in one PDF: each trip’s waybill, read back in Cyrillic; no trip is 404; another company’s task is 404', async () => {
    const byTask = await download(`/api/tasks/${taskId}/waybills.pdf`, manager.token);
    expect(byTask.status).toBe(200);
    expect(byTask.type).toContain('application/pdf');
    const text = pdfText(byTask.body);
    // Both trips of the task: the form's one and the one stamped on the phone, each under its own number.
    for (const fact of [`№ ${taskId}-${report}`, `№ ${taskId}-${trip}`, 'ООО «Карьер Северный»', 'Петров Иван Сергеевич', 'А123ВС 77']) expect(text).toContain(fact);

    const byDay = await download('/api/reports/waybills.pdf?date=2026-11-27', manager.token);
    expect(byDay.status).toBe(200);
    const dayText = pdfText(byDay.body);
    for (const fact of [`№ ${taskId}-${report}`, `№ ${taskId}-${trip}`]) expect(dayText).toContain(fact);

    const empty = await download('/api/reports/waybills.pdf?date=2026-11-26', manager.token);
    expect(empty.status).toBe(404);
    expect(empty.json().detail).toBe('За 26.11.2026 рейсов нет: накладных нет');
    expect((await download('/api/reports/waybills.pdf?date=27.11.2026', manager.token)).status).toBe(400);
    expect((await download(`/api/tasks/${taskId}/waybills.pdf`, stranger.token)).status).toBe(404);
    // Another company's manager asking for the day gets his own company's day: nothing.
    expect((await download('/api/reports/waybills.pdf?date=2026-11-27', stranger.token)).status).toBe(404);
  });
});
