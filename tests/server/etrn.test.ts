/**
 * The carrier's ЭТрН titles (server/etrn/): every title generated for a set of trips — ЮЛ, ИП and физлицо parties,
 * own and leased vehicles, a trailer, a refusal to sign, a missing unloading weight — is validated as written
 * (windows-1251 bytes) against the official ФНС schemas by libxml2's xmllint; a broken file is refused by the same
 * check, so it cannot pass vacuously; and what is missing is named with its card.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { innCheckDigits } from '../../contract/requisites.ts';
import type { EtrnTitle, PartyFacts, WaybillFacts } from '../../server/etrn/facts.ts';
import { splitName } from '../../server/etrn/facts.ts';
import { EtrnFactsMissing, missingFacts } from '../../server/etrn/missing.ts';
import { BUILDERS, buildT1Draft, buildT2, buildT4, formatCoordinate, formatMoment, type EtrnFile } from '../../server/etrn/titles.ts';
import { encodeCp1251 } from '../../server/etrn/xml.ts';

const REPO = resolve(import.meta.dirname, '../..');
/** The schemas live in the repo (copied from ../shared/etrn, see their README), so a fresh clone validates too. */
const SCHEMAS = join(REPO, 'server/etrn/schemas');
const SCHEMA: Record<EtrnTitle, string> = {
  t1: join(SCHEMAS, 'etrn-t1-shipper.xsd'),
  t2: join(SCHEMAS, 'etrn-t2-carrier-accepts.xsd'),
  t4: join(SCHEMAS, 'etrn-t4-carrier-delivers.xsd'),
};

const dir = mkdtempSync(join(tmpdir(), 'etrn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real validator on the bytes as written; the file is named by its ИдФайл, as the format requires. */
function validate(title: EtrnTitle, name: string, bytes: Buffer): { ok: boolean; output: string } {
  const path = join(dir, `${name}.xml`);
  writeFileSync(path, bytes);
  const run = spawnSync('xmllint', ['--noout', '--schema', SCHEMA[title], path], { encoding: 'utf8' });
  if (run.error) throw run.error;
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

function xpath(file: EtrnFile, expr: string): string {
  const path = join(dir, `${file.fileName}.xml`);
  writeFileSync(path, file.bytes);
  const run = spawnSync('xmllint', ['--xpath', expr, path], { encoding: 'utf8' });
  return run.stdout.replace(/\n$/, '');
}

const inn10 = (lead: string) => lead + innCheckDigits(lead);
const inn12 = (lead: string) => lead + innCheckDigits(lead);

const SHIPPER_INN = inn10('770708389');
const CONSIGNEE_INN = inn10('502401234');
const CARRIER_INN = inn10('662301234');
const IP_INN = inn12('5001007322');
const FL_INN = inn12('7712345678');
const LESSOR_INN = inn10('781001234');

const ul = (id: number | null, name: string, inn: string, edoId: string | null): PartyFacts => ({
  id,
  legalForm: 'ul',
  name,
  person: null,
  inn,
  kpp: `${inn.slice(0, 4)}01001`,
  ogrnip: null,
  address: 'г. Москва, ул. Тверская, д. 1',
  phone: '+7 495 123-45-67',
  email: 'office@example.ru',
  edoId,
});

const at = (iso: string) => ({ at: iso, offsetMinutes: 180 });

/** A trip between two legal entities in the carrier's own dump truck. */
function baseFacts(): WaybillFacts {
  return {
    tripId: 501,
    number: 'ТН-501',
    date: '2026-09-14',
    uid: '006b4a8f-fbe7-45a0-a37e-11d6b6980967',
    order: { number: '1201', date: '2026-09-13' },
    shipper: ul(11, 'ООО «Карьер "Северный"» & Ко', SHIPPER_INN, '2BM-7707083893-770701001-202106051207026941416'),
    consignee: ul(12, 'АО «СтройБетон»', CONSIGNEE_INN, '2IJ45F993141A3F4EE3AF19A13F5DA3A30C'),
    carrier: ul(null, 'ООО «Рейс-Транс»', CARRIER_INN, '2AE-6623012345-662301001-202301010000000000001'),
    customer: null,
    customerContract: null,
    cargo: { name: 'Щебень гранитный фр. 5–20', state: 'Сыпучий', packaging: 'Навалом', packageCode: 'VY', places: 1, massT: 24.5, volumeM3: 17.2, massMethod: '01' },
    vehicle: {
      id: 31,
      plate: 'А123ВС777',
      type: 'Самосвал',
      make: 'КАМАЗ 65115',
      capacityT: 25,
      volumeM3: 16,
      ownership: 'own',
      leaseDocument: null,
      lessorInn: null,
      trailer: null,
    },
    driver: {
      id: 41,
      name: { last: 'Петров', first: 'Сергей', middle: 'Иванович' },
      phone: '+79161234567',
      inn: null,
      licenceSeries: '9900',
      licenceNumber: '123456',
      licenceIssued: '2019-04-02',
    },
    loading: { id: 51, name: 'Карьер «Северный», ворота 2', address: 'Московская обл., Дмитровский р-н, д. Ивановка', lat: 56.344512, lon: 37.52011 },
    unloading: { id: 52, name: 'РБУ на Складочной', address: 'г. Москва, ул. Складочная, д. 3', lat: 55.80123, lon: 37.6012 },
    plannedLoading: at('2026-09-14T05:00:00Z'),
    loadingArrived: at('2026-09-14T05:12:40Z'),
    loadingDeparted: at('2026-09-14T05:41:05Z'),
    unloadingArrived: at('2026-09-14T07:20:00Z'),
    unloadingDeparted: at('2026-09-14T07:45:30Z'),
    massAcceptedT: 24.5,
    massHandedOverT: 24.38,
    remarksLoading: null,
    remarksUnloading: null,
    refusal: null,
    shipperSigner: { name: { last: 'Смирнов', first: 'Максим', middle: null }, position: 'Мастер участка', status: '1', powerOfAttorney: null },
    carrierSigner: { name: { last: 'Торопов', first: 'Андрей', middle: 'Андреевич' }, position: 'Генеральный директор', status: '1', powerOfAttorney: null },
    t1File: { fileId: 'ON_TRNACLGROT_A_B_C_0_20260914_4231cb85-a40a-4f9e-a517-b3339ddc975c', date: '2026-09-14', time: '08:42:11', signature: 'MIIN3gYJKoZIhvcNAQcCoIIN0DCCDcwCAQExDjAMBggqhQMHAQECAgUA' },
    t3File: { fileId: 'ON_TRNACLGRPO_C_B_A_0_20260914_572c2ab4-421f-4107-9e8d-e925b1d1d72f', date: '2026-09-14', time: '10:50:00', signature: 'MIIN3gYJKoZIhvcNAQcCoIIN0DCCDcwCAQExDjAMBggqhQMHAQECAgUB' },
  };
}

/** The trips every title is generated and validated for. */
const TRIPS: Record<string, () => WaybillFacts> = {
  'ЮЛ → ЮЛ, своя машина': baseFacts,
  'ИП-грузоотправитель, физлицо-грузополучатель, машина в лизинге с арендованным прицепом': () => {
    const f = baseFacts();
    f.shipper = { ...ul(13, '', IP_INN, '2BM-500100732259-202201010000000000002'), legalForm: 'ip', name: null, kpp: null, person: splitName('Кузнецов Олег Петрович'), ogrnip: null };
    f.consignee = { ...ul(14, '', FL_INN, '2LT-771234567801'), legalForm: 'fl', name: null, kpp: null, person: { last: 'Орлова', first: 'Анна', middle: null }, email: null };
    f.customer = ul(15, 'ООО «Заказчик»', inn10('770101234'), null);
    f.customerContract = { name: 'Договор на организацию перевозок', number: '17/2026', date: '2026-01-10' };
    f.vehicle = {
      ...baseFacts().vehicle!,
      type: 'Седельный тягач',
      make: 'Volvo FH',
      ownership: 'leasing',
      leaseDocument: { name: 'Договор лизинга', number: 'Л-2025/77', date: '2025-03-01' },
      lessorInn: LESSOR_INN,
      trailer: {
        plate: 'АВ1234 77',
        type: 'Самосвальный полуприцеп',
        make: 'Тонар 95234',
        capacityT: 32.5,
        volumeM3: 30,
        ownership: 'rent',
        leaseDocument: { name: 'Договор аренды', number: 'А-5', date: '2026-02-01' },
        lessorInn: LESSOR_INN,
      },
    };
    f.driver = { ...f.driver!, inn: inn12('7701234567'), licenceSeries: null, licenceIssued: null };
    return f;
  },
  'отказ от подписи при погрузке и при выгрузке, замечания': () => {
    const f = baseFacts();
    f.refusal = { stage: 'loading', who: 'представитель грузоотправителя Смирнов М.', reason: 'не согласен с массой <по весам> & объёмом', at: at('2026-09-14T05:40:00Z') };
    f.remarksLoading = 'Кузов чистый; груз влажный';
    f.remarksUnloading = 'Выгрузка задержана на 20 минут';
    return f;
  },
  'не взвешен при выгрузке, без убытия, часовой пояс UTC+5': () => {
    const f = baseFacts();
    f.massHandedOverT = null;
    f.unloadingDeparted = null;
    f.unloadingArrived = { at: '2026-09-14T07:20:00Z', offsetMinutes: 300 };
    f.driver = { ...f.driver!, name: { last: 'Сагдиев', first: 'Ринат', middle: 'Ильдарович' } };
    return f;
  },
};

describe('ЭТрН titles against the official schemas (xmllint)', () => {
  for (const [trip, facts] of Object.entries(TRIPS)) {
    for (const title of ['t1', 't2', 't4'] as const) {
      it(`${title}: ${trip} — valid as written`, () => {
        const made = BUILDERS[title](facts(), { now: new Date('2026-09-14T09:30:05Z'), offsetMinutes: 180 });
        const result = validate(title, made.fileName, made.bytes);
        expect(result.output).toContain('validates');
        expect(result.ok).toBe(true);
        expect(xpath(made, 'string(/*/@ИдФайл)')).toBe(made.fileName);
      });
    }
  }

  it('the validator refuses a broken file: a wrong КНД, a missing required attribute, an element out of order', () => {
    const made = buildT2(baseFacts());
    expect(validate('t2', made.fileName, made.bytes).ok).toBe(true);
    const wrongCode = validate('t2', made.fileName, encodeCp1251(made.xml.replace('КНД="1110340"', 'КНД="1110339"')));
    expect(wrongCode.ok).toBe(false);
    expect(wrongCode.output).toContain('КНД');
    const noUid = validate('t2', made.fileName, encodeCp1251(made.xml.replace(/ УИД_ТрН="[^"]*"/, '')));
    expect(noUid.ok).toBe(false);
    expect(noUid.output).toContain('УИД_ТрН');
    const t1 = buildT1Draft(baseFacts());
    const swapped = t1.xml.replace(/(<СвГП>[\s\S]*?<\/СвГП>\n)(\s*<СвГруз>[\s\S]*?<\/СвГруз>\n)/, '$2$1');
    expect(swapped).not.toBe(t1.xml);
    expect(validate('t1', t1.fileName, encodeCp1251(swapped)).ok).toBe(false);
    // A title checked against another title's schema is refused too.
    expect(validate('t4', made.fileName, made.bytes).ok).toBe(false);
  });

  it('the schemas in the repo are the shared ones, when the shared folder is beside the repo', () => {
    const shared = resolve(REPO, '../shared/etrn');
    const names = ['etrn-t1-shipper.xsd', 'etrn-t2-carrier-accepts.xsd', 'etrn-t3-consignee.xsd', 'etrn-t4-carrier-delivers.xsd'];
    for (const name of names) {
      expect(existsSync(join(SCHEMAS, name))).toBe(true);
      if (existsSync(join(shared, name))) expect(readFileSync(join(SCHEMAS, name)).equals(readFileSync(join(shared, name)))).toBe(true);
    }
  });
});

describe('the file: windows-1251, its name, its escaping', () => {
  it('declares windows-1251 and is encoded in it; the name is the prefix, the ЭДО ids, the date and the GUID', () => {
    const f = baseFacts();
    const made = buildT2(f, { now: new Date('2026-09-14T21:30:05Z'), offsetMinutes: 180, guid: '9be43d20-eea5-4e43-bc48-3a3eba682424' });
    expect(made.xml.startsWith('<?xml version="1.0" encoding="windows-1251"?>')).toBe(true);
    expect(new TextDecoder('windows-1251').decode(made.bytes)).toBe(made.xml);
    expect(made.bytes.includes(Buffer.from('Файл', 'utf8'))).toBe(false);
    expect(made.bytes.includes(Buffer.from([0xd4, 0xe0, 0xe9, 0xeb]))).toBe(true); // «Файл» in windows-1251
    // 21:30 UTC is the next day in Moscow: the header and the name carry the local date.
    expect(made.fileName).toBe(`ON_TRNACLPPRIN_${f.shipper!.edoId}_${f.carrier!.edoId}_${f.consignee!.edoId}_0_20260915_9be43d20-eea5-4e43-bc48-3a3eba682424`);
    expect(xpath(made, 'string(//Документ/@ДатИнфПрвПрием)')).toBe('15.09.2026');
    expect(xpath(made, 'string(//Документ/@ВрИнфПрвПрием)')).toBe('00:30:05');
    expect(buildT1Draft(f).fileName.startsWith(`ON_TRNACLGROT_${f.carrier!.edoId}_${f.shipper!.edoId}_`)).toBe(true);
    expect(buildT4(f).fileName.startsWith(`ON_TRNACLPVYN_${f.consignee!.edoId}_${f.carrier!.edoId}_`)).toBe(true);
    expect(buildT2(f).fileName).not.toBe(buildT2(f).fileName);
  });

  it('quotes, ampersands, angle brackets, line breaks and characters outside windows-1251 come back unchanged', () => {
    const f = baseFacts();
    const name = 'ООО "Ёлка & <Ко>"\nфилиал — Zürich 🚚';
    f.shipper = { ...f.shipper!, name };
    const made = buildT1Draft(f);
    expect(validate('t1', made.fileName, made.bytes).ok).toBe(true);
    expect(xpath(made, 'string(//СвГО//СвЮЛУч/@НаимОрг)')).toBe(name);
  });

  it('every character of windows-1251 encodes to its byte (the platform decoder reads it back)', () => {
    const all = new TextDecoder('windows-1251').decode(Uint8Array.from({ length: 256 }, (_, i) => i));
    const bytes = encodeCp1251(all);
    expect(new TextDecoder('windows-1251').decode(bytes)).toBe(all);
    expect(encodeCp1251('Аяё№').equals(Buffer.from([0xc0, 0xff, 0xb8, 0xb9]))).toBe(true);
  });

  it('times carry the place\'s offset; coordinates have the lengths the format wants', () => {
    expect(formatMoment({ at: '2026-09-14T05:12:40Z', offsetMinutes: 180 })).toBe('14.09.2026T08:12:40+03:00');
    expect(formatMoment({ at: '2026-09-14T22:00:00Z', offsetMinutes: 570 })).toBe('15.09.2026T07:30:00+09:30');
    expect(formatMoment({ at: '2026-01-01T01:00:00Z', offsetMinutes: -120 })).toBe('31.12.2025T23:00:00-02:00');
    for (const n of [0, 5.1, 55.755826, -33.9, 89.999999]) expect(formatCoordinate(n).length).toBeGreaterThanOrEqual(15);
    for (const n of [0, 5.1, 55.755826, -33.9, 89.999999]) expect(formatCoordinate(n).length).toBeLessThanOrEqual(17);
    expect(formatCoordinate(-179.123456).length).toBeLessThanOrEqual(18);
  });

  it('the trip\'s facts are where the format puts them', () => {
    const trip = TRIPS['ИП-грузоотправитель, физлицо-грузополучатель, машина в лизинге с арендованным прицепом']!();
    const t1 = buildT1Draft(trip);
    expect(xpath(t1, 'string(//СвГО//СвИП/@ИННФЛ)')).toBe(IP_INN);
    expect(xpath(t1, 'string(//СвГП//СвФЛУчаст/ФИО/@Фамилия)')).toBe('Орлова');
    expect(xpath(t1, 'string(//СвТС/ТС/@ТипВлад)')).toBe('4');
    expect(xpath(t1, 'string(//СвТС/ТС/ОснАрЛиз/ИдРекСост/ИННЮЛ)')).toBe(LESSOR_INN);
    expect(xpath(t1, 'string(//СвТС/Прицеп/@РегНомер)')).toBe('АВ123477');
    expect(xpath(t1, 'string(//СвТС/Прицеп/@ТипВлад)')).toBe('3');
    expect(xpath(t1, 'string(//СвПогруз/@ФДатВрПриб)')).toBe('14.09.2026T08:12:40+03:00');
    expect(xpath(t1, 'string(//ОпГруз/ПлМасГруз/@МасБрутЗнач)')).toBe('24500');
    expect(xpath(t1, 'string(//СвЗак/ДогУслПер/@НомерДок)')).toBe('17/2026');
    const refused = TRIPS['отказ от подписи при погрузке и при выгрузке, замечания']!();
    const t2 = buildT2(refused);
    expect(xpath(t2, 'string(//ОтметПрвПрием/@ОбстОтмет)')).toContain('не согласен с массой <по весам> & объёмом');
    expect(xpath(t2, 'string(//ЗамПрвПрием/@ЗамМасс)')).toBe('Масса груза, принятого к перевозке: 24,5 т');
    expect(xpath(t2, 'string(//ИдИнфГО/@ДатФайлИнфГО)')).toBe('14.09.2026');
    expect(xpath(buildT4(refused), 'count(//ОтметПрвВыд)')).toBe('0');
    expect(xpath(buildT4(baseFacts()), 'string(//ЗамПрвВыд/@ЗамСостГруз)')).toBe('Масса груза при выдаче: 24,38 т');
    const unweighed = buildT4(TRIPS['не взвешен при выгрузке, без убытия, часовой пояс UTC+5']!());
    expect(xpath(unweighed, 'count(//ЗамПрвВыд/@ЗамСостГруз)')).toBe('0');
    expect(xpath(unweighed, 'string(//ЗамПрвВыд/@ЗамДатаВрПриб)')).toBe('14.09.2026T12:20:00+05:00');
  });
});

describe('missingFacts: what is missing, in Russian, with the card that holds it', () => {
  it('complete facts miss nothing for any title', () => {
    for (const facts of Object.values(TRIPS)) for (const title of ['t1', 't2', 't4'] as const) expect(missingFacts(title, facts())).toEqual([]);
  });

  it('a shipper without its ИНН: named, on its counterparty card, and the draft is refused', () => {
    const f = baseFacts();
    f.shipper = { ...f.shipper!, inn: null };
    expect(missingFacts('t1', f)).toContainEqual({ field: 'shipper.inn', text: 'ИНН грузоотправителя', card: 'counterparty', id: 11 });
    expect(() => buildT1Draft(f)).toThrow(EtrnFactsMissing);
    try {
      buildT1Draft(f);
    } catch (error) {
      expect((error as EtrnFactsMissing).missing.map((m) => m.field)).toContain('shipper.inn');
      expect((error as Error).message).toContain('ИНН грузоотправителя');
    }
  });

  it('a wrong check digit, an ИП without a name, a bad КПП are named too', () => {
    const f = baseFacts();
    f.consignee = { ...f.consignee!, inn: `${CONSIGNEE_INN.slice(0, 9)}${(Number(CONSIGNEE_INN[9]) + 1) % 10}`, kpp: '12' };
    f.shipper = { ...f.shipper!, legalForm: 'ip', inn: IP_INN, person: null };
    const fields = missingFacts('t1', f).map((m) => `${m.field}: ${m.text}`);
    expect(fields).toContain('consignee.inn: ИНН: неверная контрольная цифра (грузополучателя)');
    expect(fields.some((t) => t.startsWith('consignee.kpp: КПП:'))).toBe(true);
    expect(fields).toContain('shipper.person: Фамилия и имя грузоотправителя');
  });

  it('the vehicle\'s card: a leased vehicle without its lease, a trailer without its make, no volume', () => {
    const f = baseFacts();
    f.vehicle = { ...f.vehicle!, ownership: 'rent', volumeM3: null, trailer: { plate: 'АВ123477', type: 'Полуприцеп', make: null, capacityT: 30, volumeM3: 28, ownership: 'own', leaseDocument: null, lessorInn: null } };
    const missing = missingFacts('t1', f);
    expect(missing).toContainEqual({ field: 'vehicle.leaseDocument', text: 'Договор аренды (лизинга) транспортного средства: наименование, номер и дата', card: 'vehicle', id: 31 });
    expect(missing).toContainEqual({ field: 'vehicle.lessorInn', text: 'ИНН арендодателя транспортного средства', card: 'vehicle', id: 31 });
    expect(missing).toContainEqual({ field: 'vehicle.volumeM3', text: 'Вместимость (объём кузова) транспортного средства', card: 'vehicle', id: 31 });
    expect(missing).toContainEqual({ field: 'vehicle.trailer.make', text: 'Марка прицепа', card: 'vehicle', id: 31 });
    expect(missing.every((m) => m.card === 'vehicle')).toBe(true);
  });

  it('the driver\'s card: no licence; without an ИНН the licence\'s series and date are needed', () => {
    const f = baseFacts();
    f.driver = { ...f.driver!, licenceNumber: null, licenceSeries: null, licenceIssued: null };
    expect(missingFacts('t1', f).map((m) => [m.field, m.card, m.id])).toEqual([
      ['driver.licenceNumber', 'driver', 41],
      ['driver.licenceSeries', 'driver', 41],
      ['driver.licenceIssued', 'driver', 41],
    ]);
    f.driver = { ...f.driver, inn: inn12('7701234567'), licenceNumber: '123456' };
    expect(missingFacts('t1', f)).toEqual([]);
  });

  it('Т2 waits for the shipper\'s Т1 and the УИД; Т4 for the consignee\'s Т3 and the arrival at unloading', () => {
    const f = baseFacts();
    f.t1File = null;
    f.uid = null;
    expect(missingFacts('t2', f).map((m) => [m.field, m.card])).toEqual([
      ['uid', 'documents'],
      ['t1File', 'documents'],
    ]);
    expect(() => buildT2(f)).toThrow(/Подписанный титул грузоотправителя \(Т1\)/);
    const g = baseFacts();
    g.t3File = null;
    g.unloadingArrived = null;
    g.consignee = { ...g.consignee!, edoId: null };
    expect(missingFacts('t4', g)).toEqual([
      { field: 't3File', text: 'Подписанный титул грузополучателя (Т3)', card: 'documents', id: 501 },
      { field: 'consignee.edoId', text: 'Идентификатор ЭДО грузополучателя', card: 'counterparty', id: 12 },
      { field: 'unloadingArrived', text: 'Прибытие на выгрузку', card: 'timeline', id: 501 },
    ]);
    expect(missingFacts('t2', g)).toEqual([]);
  });

  it('the carrier\'s own requisites are the company\'s card; a representative needs the МЧД', () => {
    const f = baseFacts();
    f.carrier = { ...f.carrier!, edoId: 'нет' };
    f.carrierSigner = { ...f.carrierSigner!, status: '2', powerOfAttorney: null };
    expect(missingFacts('t2', f)).toEqual([
      { field: 'carrier.edoId', text: 'Идентификатор ЭДО перевозчика: от 4 до 46 латинских букв, цифр и дефисов', card: 'company', id: null },
      { field: 'carrierSigner.powerOfAttorney', text: 'Доверенность (МЧД) подписанта перевозчика: номер и дата', card: 'company', id: null },
    ]);
    f.carrier.edoId = '2AE-1234';
    f.carrierSigner.powerOfAttorney = { id: 'e4b1c2d3-0000-4000-8000-000000000001', date: '2026-01-15', number: '15' };
    const made = buildT2(f);
    expect(validate('t2', made.fileName, made.bytes).ok).toBe(true);
    expect(xpath(made, 'string(//Подписант/СвДовер/@ИдентДовер)')).toBe('e4b1c2d3-0000-4000-8000-000000000001');
  });

  it('the times are the timeline\'s: none at loading is named on it, a broken one too', () => {
    const f = baseFacts();
    f.loadingArrived = null;
    f.loadingDeparted = { at: 'вчера', offsetMinutes: 180 };
    const missing = missingFacts('t1', f);
    expect(missing).toContainEqual({ field: 'loadingArrived', text: 'Прибытие на погрузку', card: 'timeline', id: 501 });
    expect(missing).toContainEqual({ field: 'loadingDeparted', text: 'Убытие с погрузки: неверные дата, время или часовой пояс', card: 'timeline', id: 501 });
  });
});
