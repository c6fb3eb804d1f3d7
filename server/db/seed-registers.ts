/**
 * The demo seed's registers (docs/registers.md): the demo tasks' customers, shippers and consignees as
 * counterparties with valid requisites, their loading and unloading places as cards with points near Moscow, and
 * the demo drivers' vehicles in their company's fleet. seed.ts links its tasks to them; migration 012's backfill
 * ran before the seed on an empty database, so without these a fresh demo would show empty registers.
 */
import type { Kysely } from 'kysely';
import { nowIso } from './connect.ts';
import type { Database } from './schema.ts';
import { placeKey, type BodyType, type Ownership } from '../../contract/registers.ts';
import { parsePlate } from '../../contract/plates.ts';
import type { CounterpartyRole, LegalForm } from '../../contract/requisites.ts';
import { addVehicle } from '../users/accounts.ts';

export interface CounterpartySeed {
  legal_form: LegalForm;
  name: string;
  full_name: string;
  /** Check digits right (contract/requisites.ts; tests/server/seed.test.ts checks them). */
  inn: string;
  kpp: string | null;
  ogrn: string;
  roles: CounterpartyRole[];
  address: string;
  contact_name: string;
  phone: string;
}

export interface PlaceSeed {
  /** The demo tasks' text for it, exactly. */
  name: string;
  address: string;
  lat: number;
  lon: number;
  radius_m: number;
  /** The owner's short name (a CounterpartySeed of the same company). */
  owner: string;
  driver_note: string | null;
}

/** A place as the seed links tasks to it: its id and its owner's. */
export interface SeededPlace {
  id: number;
  owner: number;
}

/** Inserts a company's counterparties and places; answers the places by name. */
export async function seedPlaces(
  trx: Kysely<Database>,
  companyId: number,
  counterparties: readonly CounterpartySeed[],
  places: readonly PlaceSeed[],
): Promise<Map<string, SeededPlace>> {
  const now = nowIso();
  const ids = new Map<string, number>();
  for (const c of counterparties) {
    const { id } = await trx
      .insertInto('counterparties')
      .values({ ...c, roles: JSON.stringify(c.roles), company_id: companyId, edo_id: null, note: null, archived_at: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(c.name, id);
  }
  const result = new Map<string, SeededPlace>();
  for (const { owner, ...p } of places) {
    const ownerId = ids.get(owner);
    if (ownerId === undefined) throw new Error(`demo seed: no counterparty «${owner}» for «${p.name}»`);
    const { id } = await trx
      .insertInto('places')
      .values({ ...p, name_key: placeKey(p.name), counterparty_id: ownerId, company_id: companyId, archived_at: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    result.set(p.name, { id, owner: ownerId });
  }
  return result;
}

export interface VehicleSeed {
  plate: string;
  make: string;
  model: string;
  body_type: BodyType;
  ownership: Ownership;
  capacity_t: number;
  volume_m3: number;
}

/**
 * A demo driver's vehicle: in his own list (the old per-driver vehicles, as before) and, with `fleet`, in his
 * company's fleet; the current one is his fleet vehicle.
 */
export async function seedVehicle(trx: Kysely<Database>, companyId: number, driverId: number, v: VehicleSeed, current: boolean, fleet: boolean): Promise<void> {
  await addVehicle(trx, driverId, { vehicle_number: v.plate, vehicle_brand: `${v.make} ${v.model}`, vehicle_capacity: v.capacity_t }, current);
  if (!fleet) return;
  const plate = parsePlate(v.plate);
  if (!plate.ok) throw new Error(`demo seed: ${plate.reason}`);
  const now = nowIso();
  const { id } = await trx
    .insertInto('vehicles')
    .values({
      ...v,
      company_id: companyId,
      plate: plate.plate.display,
      plate_key: plate.plate.normalized,
      trailer_plate: null,
      is_foreign: 0,
      is_active: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (current) await trx.updateTable('users').set({ vehicle_id: id }).where('id', '=', driverId).execute();
}

// ── The demo's cards ──

const MO = 'Московская обл.';

/** ООО «СеверТранс»'s counterparties: quarries and plants that ship, builders that order and receive. */
export const NORTH_COUNTERPARTIES: readonly CounterpartySeed[] = [
  { legal_form: 'ul', name: 'АО «Лесной карьер»', full_name: 'Акционерное общество «Лесной карьер»', inn: '5027018340', kpp: '502701001', ogrn: '1155027004186', roles: ['shipper'], address: `${MO}, г. Люберцы, ул. Карьерная, д. 1`, contact_name: 'Виктор Лаптев', phone: '+7 495 510-11-20' },
  { legal_form: 'ul', name: 'ООО «Песчаный карьер»', full_name: 'Общество с ограниченной ответственностью «Песчаный карьер»', inn: '5040126753', kpp: '504001001', ogrn: '1085040002673', roles: ['shipper'], address: `${MO}, г. Раменское, ул. Песчаная, д. 8`, contact_name: 'Галина Рябова', phone: '+7 496 463-20-15' },
  { legal_form: 'ul', name: 'ООО «Дорстрой»', full_name: 'Общество с ограниченной ответственностью «Дорстрой»', inn: '7724159038', kpp: '772401001', ogrn: '1207746309110', roles: ['shipper', 'customer', 'consignee'], address: 'г. Москва, Каширское ш., д. 61, стр. 2', contact_name: 'Артём Зуев', phone: '+7 495 320-44-10' },
  { legal_form: 'ul', name: 'ООО «ГК Северный парк»', full_name: 'Общество с ограниченной ответственностью «Группа компаний Северный парк»', inn: '5001094829', kpp: '500101001', ogrn: '1035001029381', roles: ['customer', 'consignee'], address: `${MO}, г. Балашиха, ш. Энтузиастов, д. 7`, contact_name: 'Елена Гордеева', phone: '+7 495 780-12-12' },
  { legal_form: 'ul', name: 'ООО «Монолит»', full_name: 'Общество с ограниченной ответственностью «Монолит»', inn: '5029031177', kpp: '502901001', ogrn: '1175029055211', roles: ['customer', 'consignee'], address: `${MO}, г. Мытищи, ул. Колпакова, д. 2`, contact_name: 'Руслан Ахметов', phone: '+7 495 583-09-90' },
  { legal_form: 'ul', name: 'ООО «Технопарк Восток»', full_name: 'Общество с ограниченной ответственностью «Технопарк Восток»', inn: '7731025564', kpp: '773101001', ogrn: '1197746110429', roles: ['customer', 'consignee', 'shipper'], address: 'г. Москва, ул. Вольная, д. 28', contact_name: 'Инна Белова', phone: '+7 495 640-33-21' },
  { legal_form: 'ip', name: 'ИП Ершов А. В.', full_name: 'Индивидуальный предприниматель Ершов Андрей Викторович', inn: '504012345699', kpp: null, ogrn: '316504000123450', roles: ['customer', 'consignee'], address: `${MO}, Одинцовский г.о., пос. Речной, д. 14`, contact_name: 'Андрей Ершов', phone: '+7 903 712-45-67' },
];

/** Where ООО «СеверТранс»'s demo tasks load and unload: the tasks' own texts, each with a point near Moscow. */
export const NORTH_PLACES: readonly PlaceSeed[] = [
  { name: 'Карьер «Лесной»', address: `${MO}, г.о. Люберцы, карьер у д. Торбеево`, lat: 55.6461, lon: 37.9326, radius_m: 500, owner: 'АО «Лесной карьер»', driver_note: 'Въезд через весовую, пропуск на КПП по номеру машины. Работают с 7:00 до 20:00.' },
  { name: 'Карьер «Песчаный»', address: `${MO}, Раменский г.о., у пос. Донино`, lat: 55.5201, lon: 38.3554, radius_m: 400, owner: 'ООО «Песчаный карьер»', driver_note: 'Поворот с Егорьевского ш. на 52 км, грунтовка 2 км.' },
  { name: 'Карьер «Каменный лог»', address: `${MO}, г.о. Домодедово, у д. Каменка`, lat: 55.3287, lon: 37.8841, radius_m: 500, owner: 'ООО «Песчаный карьер»', driver_note: null },
  { name: 'АБЗ «Дорстрой»', address: 'г. Москва, Каширское ш., д. 61, стр. 2', lat: 55.6288, lon: 37.7127, radius_m: 200, owner: 'ООО «Дорстрой»', driver_note: 'Загрузка асфальта с 6:00, ворота №2.' },
  { name: 'Полигон «Восточный»', address: `${MO}, г.о. Балашиха, Носовихинское ш., 3 км`, lat: 55.7593, lon: 38.0214, radius_m: 300, owner: 'ООО «Технопарк Восток»', driver_note: null },
  { name: 'ЖК «Северный парк», корп. 3', address: `${MO}, г. Балашиха, мкр. Северный, корп. 3`, lat: 55.8231, lon: 37.9612, radius_m: 150, owner: 'ООО «ГК Северный парк»', driver_note: 'Въезд с ул. Лесной, охрана: +7 495 780-12-13.' },
  { name: 'ЖК «Северный парк», корп. 5', address: `${MO}, г. Балашиха, мкр. Северный, корп. 5`, lat: 55.8244, lon: 37.9655, radius_m: 150, owner: 'ООО «ГК Северный парк»', driver_note: 'Въезд с ул. Лесной, охрана: +7 495 780-12-13.' },
  { name: 'Стройплощадка «Технопарк Восток»', address: 'г. Москва, ул. Вольная, вл. 28', lat: 55.7881, lon: 37.7563, radius_m: 200, owner: 'ООО «Технопарк Восток»', driver_note: 'Разгрузка с 8:00 до 19:00, прораб Сергей: +7 916 402-11-90.' },
  { name: 'Трасса М-8, 47 км (ремонт дороги)', address: `${MO}, Пушкинский г.о., трасса М-8 «Холмогоры», 47 км`, lat: 56.0958, lon: 37.9226, radius_m: 600, owner: 'ООО «Дорстрой»', driver_note: 'Разворот только на 49 км. Сигнальный жилет обязателен.' },
  { name: 'Коттеджный посёлок «Речной»', address: `${MO}, Одинцовский г.о., пос. Речной`, lat: 55.6318, lon: 37.0772, radius_m: 250, owner: 'ИП Ершов А. В.', driver_note: 'Шлагбаум: звонить Андрею за 15 минут.' },
  { name: 'ул. Заводская, 12 (благоустройство)', address: `${MO}, г. Мытищи, ул. Заводская, д. 12`, lat: 55.9172, lon: 37.7511, radius_m: 150, owner: 'ООО «Монолит»', driver_note: null },
  { name: 'Бетонный завод «Монолит»', address: `${MO}, г. Мытищи, Олимпийский пр-т, вл. 29`, lat: 55.9296, lon: 37.7712, radius_m: 200, owner: 'ООО «Монолит»', driver_note: 'Песок — в бункер №1, взвешивание на выезде.' },
  { name: 'Парк «Светлый»', address: `${MO}, г. Балашиха, ул. Парковая`, lat: 55.8128, lon: 37.9398, radius_m: 250, owner: 'ООО «ГК Северный парк»', driver_note: null },
];

/** ИП Карпов Логистика's: one customer with its warehouse and its site. */
export const KARPOV_COUNTERPARTIES: readonly CounterpartySeed[] = [
  { legal_form: 'ul', name: 'ООО «Галерея Девелопмент»', full_name: 'Общество с ограниченной ответственностью «Галерея Девелопмент»', inn: '5053008919', kpp: '505301001', ogrn: '1145053011762', roles: ['customer', 'shipper', 'consignee'], address: `${MO}, г. Электросталь, пр-т Ленина, д. 30`, contact_name: 'Олег Миронов', phone: '+7 496 575-40-40' },
];

export const KARPOV_PLACES: readonly PlaceSeed[] = [
  { name: 'Склад «Промзона-2»', address: `${MO}, г. Электросталь, Ногинское ш., д. 6`, lat: 55.7727, lon: 38.4112, radius_m: 200, owner: 'ООО «Галерея Девелопмент»', driver_note: null },
  { name: 'ТЦ «Галерея», пристройка', address: `${MO}, г. Электросталь, пр-т Ленина, д. 30`, lat: 55.7862, lon: 38.4455, radius_m: 150, owner: 'ООО «Галерея Девелопмент»', driver_note: 'Въезд со стороны двора, до 10:00.' },
];
