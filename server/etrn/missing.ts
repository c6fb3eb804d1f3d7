/**
 * What a title still lacks, in the words of the «Документы» panel: each item names the fact in Russian and the card
 * that holds it (a counterparty's card, the company's requisites, a place, the vehicle, the driver, the task, the
 * trip's timeline, or the documents received). A generator refuses while the list is not empty, so nothing is made
 * half-filled. Besides presence it checks what the schema would refuse (lengths, ИНН shapes and check digits, the
 * vehicle's digits) and the ФНС rules the schema's validator does not run (a leased vehicle's lease document, a
 * driver without an ИНН needs the licence's series, number and date) — docs/documents.md.
 */
import { innProblem, kppProblem, ogrnProblem } from '../../contract/requisites.ts';
import type { EtrnTitle, Moment, PartyFacts, PersonName, SignerFacts, VehicleUnitFacts, WaybillFacts } from './facts.ts';

export type FactCard = 'counterparty' | 'company' | 'place' | 'vehicle' | 'driver' | 'task' | 'timeline' | 'documents';

export interface MissingFact {
  /** The fact's path in WaybillFacts («shipper.inn», «vehicle.trailer.make»). */
  field: string;
  /** What a person reads: «ИНН грузоотправителя», «Госномер: не длиннее 9 знаков». */
  text: string;
  card: FactCard;
  /** The card's id (the counterparty, place, vehicle, driver or trip), null for the company's own requisites. */
  id: number | null;
}

/** Thrown by a generator asked for a title whose facts are not all there. */
export class EtrnFactsMissing extends Error {
  constructor(
    readonly title: EtrnTitle,
    readonly missing: MissingFact[],
  ) {
    super(`Не хватает сведений для ${TITLE_NAMES[title]}: ${missing.map((m) => m.text).join('; ')}`);
    this.name = 'EtrnFactsMissing';
  }
}

export const TITLE_NAMES: Record<EtrnTitle, string> = {
  t1: 'титула грузоотправителя (Т1)',
  t2: 'титула перевозчика о приёме груза (Т2)',
  t4: 'титула перевозчика о выдаче груза (Т4)',
};

export const EDO_ID_PATTERN = /^[0-9A-Za-z-]{4,46}$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

export function isDate(value: string | null | undefined): value is string {
  if (!value || !DATE_PATTERN.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value && value >= '1900-01-01' && value <= '2099-12-31';
}

export function isMoment(value: Moment | null | undefined): value is Moment {
  if (!value || !Number.isInteger(value.offsetMinutes) || Math.abs(value.offsetMinutes) > 14 * 60) return false;
  const t = Date.parse(value.at);
  return !Number.isNaN(t) && isDate(new Date(t + value.offsetMinutes * 60_000).toISOString().slice(0, 10));
}

const blank = (s: string | null | undefined): boolean => s === null || s === undefined || s.trim() === '';
/** A decimal the schema takes: positive, at most `fraction` digits after the point once rounded, `total` in all. */
const fitsDecimal = (n: number | null, total: number, fraction: number): boolean =>
  n !== null && Number.isFinite(n) && n > 0 && Math.round(n * 10 ** fraction) < 10 ** total;

type Role = 'shipper' | 'consignee' | 'carrier' | 'customer';
const ROLE_GENITIVE: Record<Role, string> = {
  shipper: 'грузоотправителя',
  consignee: 'грузополучателя',
  carrier: 'перевозчика',
  customer: 'заказчика',
};

class Collector {
  readonly items: MissingFact[] = [];
  add(field: string, text: string, card: FactCard, id: number | null): void {
    this.items.push({ field, text, card, id });
  }
}

function checkName(out: Collector, field: string, name: PersonName | null, what: string, card: FactCard, id: number | null): void {
  if (!name || blank(name.last) || blank(name.first)) {
    out.add(field, `Фамилия и имя ${what}`, card, id);
    return;
  }
  for (const part of [name.last, name.first, name.middle]) {
    if (part !== null && part.trim().length > 60) out.add(field, `ФИО ${what}: каждая часть не длиннее 60 символов`, card, id);
  }
}

/** A participant's identity as ИдСв needs it, and (for Т1) its phone. */
function checkParty(out: Collector, role: Role, party: PartyFacts | null, tripId: number | null, withContact: boolean): void {
  const who = ROLE_GENITIVE[role];
  if (!party) {
    out.add(role, role === 'carrier' ? 'Реквизиты перевозчика (компании)' : `Не указан ${role === 'shipper' ? 'грузоотправитель' : role === 'consignee' ? 'грузополучатель' : 'заказчик'}`, role === 'carrier' ? 'company' : 'task', role === 'carrier' ? null : tripId);
    return;
  }
  const card: FactCard = role === 'carrier' ? 'company' : 'counterparty';
  const id = party.id;
  if (party.legalForm === 'ul') {
    if (blank(party.name)) out.add(`${role}.name`, `Полное наименование ${who}`, card, id);
    else if ((party.name ?? '').trim().length > 1000) out.add(`${role}.name`, `Наименование ${who}: не длиннее 1000 символов`, card, id);
    if (!blank(party.kpp)) {
      const problem = kppProblem(party.kpp ?? '');
      if (problem) out.add(`${role}.kpp`, `${problem} (${who})`, card, id);
    }
  } else {
    checkName(out, `${role}.person`, party.person, who, card, id);
    if (party.legalForm === 'ip' && !blank(party.ogrnip)) {
      const problem = ogrnProblem(party.ogrnip ?? '', 'ip');
      if (problem) out.add(`${role}.ogrnip`, `${problem} (${who})`, card, id);
    }
  }
  if (blank(party.inn)) out.add(`${role}.inn`, `ИНН ${who}`, card, id);
  else {
    const problem = innProblem(party.inn ?? '', party.legalForm);
    if (problem) out.add(`${role}.inn`, `${problem} (${who})`, card, id);
  }
  if (withContact) {
    if (blank(party.phone)) out.add(`${role}.phone`, `Телефон ${who}`, card, id);
    else if ((party.phone ?? '').length > 255) out.add(`${role}.phone`, `Телефон ${who}: не длиннее 255 символов`, card, id);
  }
}

function checkEdo(out: Collector, role: Role, party: PartyFacts | null): void {
  if (!party) return;
  const card: FactCard = role === 'carrier' ? 'company' : 'counterparty';
  if (blank(party.edoId)) out.add(`${role}.edoId`, `Идентификатор ЭДО ${ROLE_GENITIVE[role]}`, card, party.id);
  else if (!EDO_ID_PATTERN.test(party.edoId ?? '')) {
    out.add(`${role}.edoId`, `Идентификатор ЭДО ${ROLE_GENITIVE[role]}: от 4 до 46 латинских букв, цифр и дефисов`, card, party.id);
  }
}

function checkMoment(out: Collector, field: string, value: Moment | null, text: string, card: FactCard, id: number | null): void {
  if (!value) out.add(field, text, card, id);
  else if (!isMoment(value)) out.add(field, `${text}: неверные дата, время или часовой пояс`, card, id);
}

function checkSigner(out: Collector, field: string, signer: SignerFacts | null, who: string, card: FactCard, id: number | null): void {
  if (!signer) {
    out.add(field, `Подписант ${who}`, card, id);
    return;
  }
  checkName(out, `${field}.name`, signer.name, `подписанта ${who}`, card, id);
  if (signer.position !== null && signer.position.trim().length > 128) out.add(`${field}.position`, `Должность подписанта ${who}: не длиннее 128 символов`, card, id);
  if (signer.status === '2') {
    const poa = signer.powerOfAttorney;
    if (!poa || blank(poa.id) || !isDate(poa.date)) out.add(`${field}.powerOfAttorney`, `Доверенность (МЧД) подписанта ${who}: номер и дата`, card, id);
  }
}

function checkUnit(out: Collector, field: string, unit: VehicleUnitFacts, what: string, id: number | null): void {
  const plate = (unit.plate ?? '').replace(/\s+/g, '');
  if (plate === '') out.add(`${field}.plate`, `Госномер ${what}`, 'vehicle', id);
  else if (plate.length > 9) out.add(`${field}.plate`, `Госномер ${what}: не длиннее 9 знаков`, 'vehicle', id);
  if (blank(unit.type)) out.add(`${field}.type`, `Тип ${what}`, 'vehicle', id);
  if (blank(unit.make)) out.add(`${field}.make`, `Марка ${what}`, 'vehicle', id);
  if (unit.capacityT === null) out.add(`${field}.capacityT`, `Грузоподъёмность ${what}`, 'vehicle', id);
  else if (!fitsDecimal(unit.capacityT, 5, 2)) out.add(`${field}.capacityT`, `Грузоподъёмность ${what}: больше 0 и меньше 1000 т`, 'vehicle', id);
  if (unit.volumeM3 === null) out.add(`${field}.volumeM3`, `Вместимость (объём кузова) ${what}`, 'vehicle', id);
  else if (!fitsDecimal(unit.volumeM3, 4, 2)) out.add(`${field}.volumeM3`, `Вместимость ${what}: больше 0 и меньше 100 м³`, 'vehicle', id);
  if (!unit.ownership) out.add(`${field}.ownership`, `Основание владения ${what}`, 'vehicle', id);
  else if (unit.ownership !== 'own') {
    const doc = unit.leaseDocument;
    if (!doc || blank(doc.name) || blank(doc.number) || !isDate(doc.date)) {
      out.add(`${field}.leaseDocument`, `Договор аренды (лизинга) ${what}: наименование, номер и дата`, 'vehicle', id);
    }
    if (blank(unit.lessorInn)) out.add(`${field}.lessorInn`, `ИНН арендодателя ${what}`, 'vehicle', id);
    else if (innProblem(unit.lessorInn ?? '')) out.add(`${field}.lessorInn`, `ИНН арендодателя ${what}: ${innProblem(unit.lessorInn ?? '')?.replace('ИНН: ', '')}`, 'vehicle', id);
  }
}

function checkFileRef(out: Collector, field: 't1File' | 't3File', facts: WaybillFacts): void {
  const ref = facts[field];
  const label = field === 't1File' ? 'Подписанный титул грузоотправителя (Т1)' : 'Подписанный титул грузополучателя (Т3)';
  if (!ref) {
    out.add(field, label, 'documents', facts.tripId);
    return;
  }
  if (blank(ref.fileId) || ref.fileId.length > 255 || !isDate(ref.date) || !TIME_PATTERN.test(ref.time) || blank(ref.signature)) {
    out.add(field, `${label}: идентификатор файла, дата, время и подпись`, 'documents', facts.tripId);
  }
}

function checkUid(out: Collector, facts: WaybillFacts): void {
  if (blank(facts.uid)) out.add('uid', 'УИД транспортной накладной (присваивает оператор после отправки Т1)', 'documents', facts.tripId);
  else if ((facts.uid ?? '').length > 1000) out.add('uid', 'УИД транспортной накладной: не длиннее 1000 символов', 'documents', facts.tripId);
}

function checkT1(out: Collector, f: WaybillFacts): void {
  const trip = f.tripId;
  if (blank(f.number)) out.add('number', 'Номер транспортной накладной', 'task', trip);
  if (!isDate(f.date)) out.add('date', 'Дата транспортной накладной', 'task', trip);
  if (!f.order || blank(f.order.number) || !isDate(f.order.date)) out.add('order', 'Номер и дата заказа (заявки)', 'task', trip);
  checkParty(out, 'shipper', f.shipper, trip, true);
  checkParty(out, 'consignee', f.consignee, trip, true);
  checkParty(out, 'carrier', f.carrier, trip, true);
  if (f.customer && f.customerContract) checkParty(out, 'customer', f.customer, trip, true);
  checkEdo(out, 'shipper', f.shipper);
  checkEdo(out, 'carrier', f.carrier);

  const c = f.cargo;
  if (blank(c.name)) out.add('cargo.name', 'Наименование груза', 'task', trip);
  if (blank(c.state)) out.add('cargo.state', 'Состояние груза', 'task', trip);
  if (blank(c.packaging)) out.add('cargo.packaging', 'Способ упаковки груза', 'task', trip);
  if (!c.packageCode || c.packageCode.length !== 2) out.add('cargo.packageCode', 'Вид тары (двухзначный код)', 'task', trip);
  if (!Number.isInteger(c.places) || c.places < 1 || c.places > 9999) out.add('cargo.places', 'Количество грузовых мест (от 1 до 9999)', 'task', trip);
  if (c.massT === null) out.add('cargo.massT', 'Масса груза брутто', 'timeline', trip);
  else if (!fitsDecimal(c.massT * 1000, 17, 3)) out.add('cargo.massT', 'Масса груза брутто: больше 0', 'timeline', trip);
  if (c.volumeM3 !== null && !fitsDecimal(c.volumeM3, 17, 3)) out.add('cargo.volumeM3', 'Объём груза: больше 0', 'task', trip);
  if (!c.massMethod) out.add('cargo.massMethod', 'Способ определения массы груза', 'task', trip);

  const v = f.vehicle;
  if (!v) out.add('vehicle', 'Транспортное средство', 'task', trip);
  else {
    checkUnit(out, 'vehicle', v, 'транспортного средства', v.id);
    if (v.trailer) checkUnit(out, 'vehicle.trailer', v.trailer, 'прицепа', v.id);
  }

  const d = f.driver;
  if (!d) out.add('driver', 'Водитель', 'task', trip);
  else {
    checkName(out, 'driver.name', d.name, 'водителя', 'driver', d.id);
    if (blank(d.phone)) out.add('driver.phone', 'Телефон водителя', 'driver', d.id);
    else if ((d.phone ?? '').length > 20) out.add('driver.phone', 'Телефон водителя: не длиннее 20 символов', 'driver', d.id);
    if (!blank(d.inn) && innProblem(d.inn ?? '', 'fl')) out.add('driver.inn', `ИНН водителя: ${innProblem(d.inn ?? '', 'fl')?.replace('ИНН: ', '')}`, 'driver', d.id);
    if (blank(d.licenceNumber)) out.add('driver.licenceNumber', 'Номер водительского удостоверения', 'driver', d.id);
    else if ((d.licenceNumber ?? '').length > 20) out.add('driver.licenceNumber', 'Номер водительского удостоверения: не длиннее 20 знаков', 'driver', d.id);
    if ((d.licenceSeries ?? '').length > 20) out.add('driver.licenceSeries', 'Серия водительского удостоверения: не длиннее 20 знаков', 'driver', d.id);
    if (blank(d.inn)) {
      // The format's rule: without the driver's ИНН the licence's series and date of issue are required.
      if (blank(d.licenceSeries)) out.add('driver.licenceSeries', 'Серия водительского удостоверения (или ИНН водителя)', 'driver', d.id);
      if (!isDate(d.licenceIssued)) out.add('driver.licenceIssued', 'Дата выдачи водительского удостоверения (или ИНН водителя)', 'driver', d.id);
    } else if (d.licenceIssued !== null && !isDate(d.licenceIssued)) out.add('driver.licenceIssued', 'Дата выдачи водительского удостоверения: неверная дата', 'driver', d.id);
  }

  for (const [key, place, label] of [['loading', f.loading, 'погрузки'], ['unloading', f.unloading, 'выгрузки']] as const) {
    if (!place) out.add(key, `Место ${label}`, 'task', trip);
    else if (blank(place.address)) out.add(`${key}.address`, `Адрес места ${label}`, 'place', place.id);
  }
  checkMoment(out, 'plannedLoading', f.plannedLoading, 'Заявленные дата и время погрузки', 'task', trip);
  checkMoment(out, 'loadingArrived', f.loadingArrived, 'Прибытие на погрузку', 'timeline', trip);
  checkMoment(out, 'loadingDeparted', f.loadingDeparted, 'Убытие с погрузки', 'timeline', trip);
  checkSigner(out, 'shipperSigner', f.shipperSigner, 'грузоотправителя', 'counterparty', f.shipper?.id ?? null);
}

/** The facts `title` lacks; an empty list means the title can be made. */
export function missingFacts(title: EtrnTitle, facts: WaybillFacts): MissingFact[] {
  const out = new Collector();
  if (title === 't1') checkT1(out, facts);
  else {
    checkUid(out, facts);
    checkFileRef(out, title === 't2' ? 't1File' : 't3File', facts);
    checkEdo(out, 'carrier', facts.carrier ?? null);
    if (!facts.carrier) out.add('carrier', 'Реквизиты перевозчика (компании)', 'company', null);
    const counterpart = title === 't2' ? 'shipper' : 'consignee';
    if (!facts[counterpart]) out.add(counterpart, counterpart === 'shipper' ? 'Не указан грузоотправитель' : 'Не указан грузополучатель', 'task', facts.tripId);
    checkEdo(out, counterpart, facts[counterpart]);
    const byDriver = facts.driverSigned?.[title] ?? null;
    if (byDriver) checkSigner(out, 'driverSigner', byDriver.signer, 'перевозчика (водителя)', 'driver', facts.driver?.id ?? null);
    else checkSigner(out, 'carrierSigner', facts.carrierSigner, 'перевозчика', 'company', null);
    if (byDriver && !isMoment(byDriver.at)) out.add('driverSigned', 'Подтверждение водителя: неверные дата, время или часовой пояс', 'timeline', facts.tripId);
    if (title === 't2') checkMoment(out, 'loadingArrived', facts.loadingArrived, 'Прибытие на погрузку', 'timeline', facts.tripId);
    else checkMoment(out, 'unloadingArrived', facts.unloadingArrived, 'Прибытие на выгрузку', 'timeline', facts.tripId);
    const optional: [keyof WaybillFacts, string][] =
      title === 't2'
        ? [['loadingDeparted', 'Убытие с погрузки']]
        : [['unloadingDeparted', 'Убытие с выгрузки']];
    for (const [key, label] of optional) {
      const value = facts[key] as Moment | null;
      if (value && !isMoment(value)) out.add(key, `${label}: неверные дата, время или часовой пояс`, 'timeline', facts.tripId);
    }
    if (facts.refusal && (blank(facts.refusal.who) || blank(facts.refusal.reason) || !isMoment(facts.refusal.at))) {
      out.add('refusal', 'Отказ от подписи: кто, причина, дата и время', 'timeline', facts.tripId);
    }
  }
  return out.items;
}
