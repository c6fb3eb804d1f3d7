/**
 * The company's registers (issue 31; docs/registers.md): counterparties, places of loading and unloading, and the
 * fleet — the shapes the server answers, the write schemas of places and vehicles (the counterparty's card and the
 * carrier's requisites are in requisites.ts), the list queries, and what a task carries of them. Every refusal
 * names its field by the Russian label a person reads («Госномер: …», «Широта: …»).
 */
import { z } from 'zod';
import { isoDate, jsonNumber, text } from './fields.ts';
import { latitude, longitude, PLACE_RADIUS_DEFAULT_M, radiusMeters } from './geo.ts';
import { parsePlate } from './plates.ts';
import { COUNTERPARTY_ROLES, innField, type CounterpartyRole, type LegalForm } from './requisites.ts';
import { MAX_VEHICLE_CAPACITY } from './payloads.ts';

// ── What the server answers ──

export interface Counterparty {
  id: number;
  company_id: number;
  legal_form: LegalForm;
  name: string;
  full_name: string | null;
  inn: string | null;
  kpp: string | null;
  ogrn: string | null;
  roles: CounterpartyRole[];
  address: string | null;
  contact_name: string | null;
  phone: string | null;
  edo_id: string | null;
  note: string | null;
  /** When it was archived (it stays on the tasks that name it, and is not offered for new ones); null: in use. */
  archived_at: string | null;
  /** Tasks that name it in any role. */
  task_count: number;
  created_at: string;
  updated_at: string;
}

export interface Place {
  id: number;
  company_id: number;
  name: string;
  address: string | null;
  /** WGS-84 degrees; both or neither. */
  lat: number | null;
  lon: number | null;
  /** The geofence around the point, metres (150 unless set; 30–2000). */
  radius_m: number;
  counterparty_id: number | null;
  /** The owner's name, for the list. */
  counterparty: { id: number; name: string } | null;
  /** What a driver needs to know there: the gate code, hours, a contact on site, the road in. */
  driver_note: string | null;
  archived_at: string | null;
  /** Tasks that load or unload there. */
  task_count: number;
  created_at: string;
  updated_at: string;
}

/** A vehicle's card fields the papers read (issue 33; migration 033): the card, its table and the form's body share them. */
export interface VehiclePaperFields {
  /** When not owned: the document it is held under (its name, number and date) and the lessor's ИНН (the waybill's «ОснАрЛиз»). */
  lease_doc_name: string | null;
  lease_doc_number: string | null;
  lease_doc_date: string | null;
  lessor_inn: string | null;
  /** The trailer's type, make, capacity and volume (the waybill's «Прицеп»; its plate is `trailer_plate`). */
  trailer_type: string | null;
  trailer_make: string | null;
  trailer_capacity_t: number | null;
  trailer_volume_m3: number | null;
  /** How the carrier holds the trailer, apart from the vehicle (migration 051): a leased truck may pull its own trailer. */
  trailer_ownership: Ownership | null;
  /** When the trailer is not owned: its document (name, number, date) and its lessor's ИНН, as the vehicle's above. */
  trailer_lease_doc_name: string | null;
  trailer_lease_doc_number: string | null;
  trailer_lease_doc_date: string | null;
  trailer_lessor_inn: string | null;
}

export interface Vehicle extends VehiclePaperFields {
  id: number;
  company_id: number;
  /** The plate as shown («А123ВС 77»); stored and compared normalised (contract/plates.ts). */
  plate: string;
  make: string | null;
  model: string | null;
  body_type: BodyType | null;
  ownership: Ownership | null;
  capacity_t: number | null;
  volume_m3: number | null;
  trailer_plate: string | null;
  is_foreign: boolean;
  is_active: boolean;
  /** The drivers whose current vehicle it is. */
  drivers: { id: number; name: string }[];
  created_at: string;
  updated_at: string;
}

/** DELETE /counterparties/{id}, DELETE /places/{id}: erased when nothing uses it, else archived; `detail` says which. */
export interface RegisterRemoval {
  id: number;
  company_id: number;
  outcome: 'deleted' | 'archived';
  detail: string;
}

/** A counterparty as a task names it (staff views only: a driver never sees the counterparties). */
export interface CounterpartyRef {
  id: number;
  name: string;
  inn: string | null;
}

/** A place as a task names it: what a driver needs to get there. */
export interface PlaceRef {
  id: number;
  name: string;
  address: string | null;
  lat: number | null;
  lon: number | null;
  radius_m: number;
  driver_note: string | null;
}

/**
 * The map on a place's card (docs/registers.md «The map»): the tile URL template the server was given
 * (`MAP_TILE_URL`, with `{z}`, `{x}`, `{y}`) and the attribution shown on the map; `tile_url` null: no map.
 */
export interface MapTiles {
  tile_url: string | null;
  attribution: string | null;
}

/** A fleet vehicle as a driver's card names it. */
export interface VehicleRef {
  id: number;
  plate: string;
  make: string | null;
  model: string | null;
  capacity_t: number | null;
}

// ── The fleet's words ──

export const BODY_TYPES = ['dump_truck', 'tractor_semitrailer', 'tractor_dump_semitrailer', 'flatbed', 'van', 'tank', 'mixer', 'other'] as const;
export type BodyType = (typeof BODY_TYPES)[number];
export const BODY_TYPE_LABELS: Record<BodyType, string> = {
  dump_truck: 'Самосвал',
  tractor_semitrailer: 'Тягач с полуприцепом',
  tractor_dump_semitrailer: 'Тягач с самосвальным полуприцепом',
  flatbed: 'Бортовой',
  van: 'Фургон',
  tank: 'Цистерна',
  mixer: 'Автобетоносмеситель',
  other: 'Другой',
};

/** How the carrier holds the vehicle (the waybill asks): собственность, аренда, лизинг, безвозмездное пользование. */
export const OWNERSHIPS = ['own', 'rent', 'leasing', 'free_use'] as const;
export type Ownership = (typeof OWNERSHIPS)[number];
export const OWNERSHIP_LABELS: Record<Ownership, string> = {
  own: 'Собственность',
  rent: 'Аренда',
  leasing: 'Лизинг',
  free_use: 'Безвозмездное пользование',
};

/** The document a vehicle not owned is usually held under: the waybill's name for it when the card names none. */
export const LEASE_DOCUMENT_NAMES: Record<Exclude<Ownership, 'own'>, string> = {
  rent: 'Договор аренды',
  leasing: 'Договор лизинга',
  free_use: 'Договор безвозмездного пользования',
};

/** A body volume beyond any road truck's (m³): a typo. */
export const MAX_VEHICLE_VOLUME = 200;

/**
 * The key a place's name is compared by: trimmed, inner spaces single, lower case, ё as е, quotes and dashes
 * alike. «Карьер  Гранит» and «карьер гранит» are one place.
 */
export function placeKey(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[«»„“”"']/g, '"')
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

// ── Write schemas ──

/** An optional text of a card: empty is null; absent is null too (a PUT sends the whole card). */
const cardText = (label: string, max: number) =>
  text(`${label}: ожидается текст`)
    .max(max, `${label}: не длиннее ${max} символов`)
    .transform((s) => (s === '' ? null : s))
    .nullish()
    .transform((v) => v ?? null);

/** An optional register id of a card field: absent is null. */
export const refId = (label: string) =>
  z
    .number({ message: `${label}: ожидается номер` })
    .int(`${label}: ожидается номер`)
    .positive(`${label}: ожидается номер`)
    .nullish()
    .transform((v) => v ?? null);

const placeFields = {
  name: text('Название: ожидается текст').min(1, 'Название: обязательное поле').max(200, 'Название: не длиннее 200 символов'),
  address: cardText('Адрес', 500),
  lat: latitude.nullish().transform((v) => v ?? null),
  lon: longitude.nullish().transform((v) => v ?? null),
  radius_m: radiusMeters.nullish().transform((v) => v ?? PLACE_RADIUS_DEFAULT_M),
  counterparty_id: refId('Контрагент'),
  driver_note: cardText('Заметка для водителя', 2000),
};

/** POST /places/, PUT /places/{id}: the whole card. A point is both coordinates or neither. */
export const placeSchema = z
  .object(placeFields)
  .strict()
  .superRefine((value, ctx) => {
    if ((value.lat === null) !== (value.lon === null)) {
      ctx.addIssue({ code: 'custom', path: [value.lat === null ? 'lat' : 'lon'], message: 'Координаты: укажите широту и долготу вместе' });
    }
  });
export type PlacePayload = z.infer<typeof placeSchema>;

const positive = (label: string, max: number, unit: string, hint = '') =>
  jsonNumber(`${label}: ожидается число`)
    .positive(`${label}: больше 0`)
    .max(max, `${label}: не больше ${max} ${unit}${hint}`)
    .nullish()
    .transform((v) => v ?? null);

const ownership = (label: string) =>
  z.enum(OWNERSHIPS, { message: `${label}: ожидается одно из ${OWNERSHIPS.join(', ')}` }).nullish().transform((v) => v ?? null);

/** The date of a document a vehicle or trailer is held under. */
const leaseDate = (label: string) =>
  z
    .string({ message: `${label}: ожидается дата ГГГГ-ММ-ДД` })
    .refine((d) => isoDate.safeParse(d).success, `${label}: ожидается дата ГГГГ-ММ-ДД`)
    .refine((d) => d >= '1990-01-01', `${label}: слишком ранняя`)
    .nullish()
    .transform((v) => v ?? null);

/**
 * POST /vehicles/, PUT /vehicles/{id}: the whole card. The plate is read as contract/plates.ts reads it (a foreign
 * one when `is_foreign`); the answer and the database carry its shown form, the database also its normalised key.
 */
export const vehicleSchema = z
  .object({
    plate: z.string({ message: 'Госномер: ожидается текст' }),
    is_foreign: z.boolean({ message: 'Иностранный номер: ожидается true или false' }).default(false),
    make: cardText('Марка', 100),
    model: cardText('Модель', 100),
    body_type: z.enum(BODY_TYPES, { message: `Тип кузова: ожидается одно из ${BODY_TYPES.join(', ')}` }).nullish().transform((v) => v ?? null),
    ownership: ownership('Владение'),
    capacity_t: positive('Грузоподъёмность', MAX_VEHICLE_CAPACITY, 'т', ' — проверьте запятую'),
    volume_m3: positive('Объём кузова', MAX_VEHICLE_VOLUME, 'м³'),
    trailer_plate: z.string({ message: 'Госномер прицепа: ожидается текст' }).nullish(),
    lease_doc_name: cardText('Документ владения', 200),
    lease_doc_number: cardText('Номер документа владения', 100),
    lease_doc_date: leaseDate('Дата документа владения'),
    lessor_inn: innField('ИНН арендодателя').transform((v) => v ?? null),
    trailer_ownership: ownership('Владение прицепом'),
    trailer_lease_doc_name: cardText('Документ владения прицепом', 200),
    trailer_lease_doc_number: cardText('Номер документа владения прицепом', 100),
    trailer_lease_doc_date: leaseDate('Дата документа владения прицепом'),
    trailer_lessor_inn: innField('ИНН арендодателя прицепа').transform((v) => v ?? null),
    trailer_type: cardText('Тип прицепа', 100),
    trailer_make: cardText('Марка прицепа', 100),
    trailer_capacity_t: positive('Грузоподъёмность прицепа', MAX_VEHICLE_CAPACITY, 'т', ' — проверьте запятую'),
    trailer_volume_m3: positive('Объём прицепа', MAX_VEHICLE_VOLUME, 'м³'),
    is_active: z.boolean({ message: 'Активен: ожидается true или false' }).default(true),
  })
  .strict()
  .transform((value, ctx) => {
    const plate = parsePlate(value.plate, { foreign: value.is_foreign });
    if (!plate.ok) ctx.addIssue({ code: 'custom', path: ['plate'], message: plate.reason });
    const trailerText = value.trailer_plate?.trim() ?? '';
    const trailer = trailerText === '' ? null : parsePlate(trailerText, { foreign: value.is_foreign, trailer: true, label: 'Госномер прицепа' });
    if (trailer && !trailer.ok) ctx.addIssue({ code: 'custom', path: ['trailer_plate'], message: trailer.reason });
    if (!plate.ok || (trailer && !trailer.ok)) return z.NEVER;
    return {
      ...value,
      plate: plate.plate.display,
      plate_key: plate.plate.normalized,
      trailer_plate: trailer?.ok ? trailer.plate.display : null,
    };
  });
export type VehiclePayload = z.output<typeof vehicleSchema>;

// ── List queries ──

/** A number in a query string: digits only (no sign, point, exponent or leading zero), in its range. */
const queryInt = (label: string, min: number, max: number) =>
  z
    .string({ message: `${label}: ожидается целое число` })
    .refine((s) => /^(0|[1-9][0-9]*)$/.test(s) && Number(s) >= min && Number(s) <= max, `${label}: ожидается целое число от ${min} до ${max}`)
    .transform(Number)
    .optional();
const queryIntOr = (label: string, min: number, max: number, fallback: number) => queryInt(label, min, max).transform((v) => v ?? fallback);

const listPaging = {
  q: z.string({ message: 'Поиск: ожидается текст' }).trim().max(100, 'Поиск: не длиннее 100 символов').optional(),
  /** A super-admin's company; other staff's own company whatever is sent (another one is 404). */
  company_id: queryInt('Компания', 1, 2_147_483_647),
  limit: queryIntOr('Лимит', 1, 200, 50),
  offset: queryIntOr('Сдвиг', 0, 1_000_000, 0),
};

/** `archived=1`: the archive only; otherwise the cards in use. */
const archivedFlag = z.enum(['0', '1'], { message: 'Архив: ожидается 0 или 1' }).optional();

/** GET /counterparties/: by name or ИНН (`q`), by role, the archive. */
export const counterpartyListQuery = z
  .object({ ...listPaging, role: z.enum(COUNTERPARTY_ROLES, { message: 'Роль: ожидается customer, shipper или consignee' }).optional(), archived: archivedFlag })
  .strict();
/** GET /places/: by name or address (`q`), by owner, the archive. */
export const placeListQuery = z.object({ ...listPaging, counterparty_id: queryInt('Контрагент', 1, 2_147_483_647), archived: archivedFlag }).strict();
/** GET /vehicles/: by plate, make or model (`q`); `active=1`: only the vehicles in service. */
export const vehicleListQuery = z.object({ ...listPaging, active: z.enum(['0', '1'], { message: 'Активные: ожидается 0 или 1' }).optional() }).strict();

/** POST on a register: a super-admin names the company the card belongs to. */
export const registerCreateQuery = z.object({ company_id: queryInt('Компания', 1, 2_147_483_647) }).strict();

// ── What a task carries ──

/** The register links a task accepts (POST /tasks/, PUT /tasks/{id}/, templates, «Повторять»); null clears one. */
export const taskLinkFields = {
  customer_id: z.number({ message: 'ожидается номер контрагента' }).int().positive('ожидается номер контрагента').nullable().optional(),
  shipper_id: z.number({ message: 'ожидается номер контрагента' }).int().positive('ожидается номер контрагента').nullable().optional(),
  consignee_id: z.number({ message: 'ожидается номер контрагента' }).int().positive('ожидается номер контрагента').nullable().optional(),
  loading_place_id: z.number({ message: 'ожидается номер места' }).int().positive('ожидается номер места').nullable().optional(),
  unloading_place_id: z.number({ message: 'ожидается номер места' }).int().positive('ожидается номер места').nullable().optional(),
};
export const TASK_LINK_FIELDS = Object.keys(taskLinkFields) as (keyof typeof taskLinkFields)[];
export type TaskLinks = { [K in keyof typeof taskLinkFields]?: number | null };

/** Which role a task's counterparty field asks for. */
export const LINK_ROLE: Record<'customer_id' | 'shipper_id' | 'consignee_id', CounterpartyRole> = {
  customer_id: 'customer',
  shipper_id: 'shipper',
  consignee_id: 'consignee',
};
