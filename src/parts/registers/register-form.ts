/**
 * The registers' cards as forms (issue 31, docs/registers.md): what a person types, kept as text so nothing is lost
 * on a refusal, turned into the bodies of POST/PUT /counterparties/, /places/, /vehicles/ and checked before sending
 * with the contract's own schemas. Every refusal names its field by the Russian label («ИНН: неверная контрольная
 * цифра»), so a refusal — the form's check or the server's — stands under the field with that label (pure;
 * tests/ui/register-form.test.ts).
 */
import type { z } from 'zod';
import { PLACE_RADIUS_DEFAULT_M, PLACE_RADIUS_MAX_M, PLACE_RADIUS_MIN_M, parsePoint, type MapSource } from '../../../contract/geo.ts';
import { parsePlate } from '../../../contract/plates.ts';
import type { BodyType, Counterparty, Ownership, Place, Vehicle, VehiclePaperFields } from '../../../contract/registers.ts';
import { innProblem, type CounterpartyRole, type LegalForm } from '../../../contract/requisites.ts';
import { parseQuantity, quantityText } from '../../ui/decimal.ts';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** A refusal's message without its label, as it reads under the field: «ИНН: неверная …» → «Неверная …». */
function bare(message: string, label: string): string {
  const rest = message.slice(label.length + 1).trim();
  return rest ? rest.charAt(0).toUpperCase() + rest.slice(1) : message;
}

/**
 * Where a refusal goes: under the field whose label starts it (the longest label that fits), else the form's own
 * error. `labels` maps each label a message may start with to its field.
 */
export function placeLabelled<F extends string>(detail: string, labels: Readonly<Record<string, F>>): { field: F | null; message: string } {
  const label = Object.keys(labels)
    .filter((l) => detail.startsWith(`${l}:`))
    .sort((a, b) => b.length - a.length)[0];
  if (label === undefined) return { field: null, message: detail };
  return { field: labels[label] ?? null, message: bare(detail, label) };
}

/** A schema's refusals, each under its field (the path's first key), the first one per field. */
function issuesOf<F extends string>(issues: readonly z.core.$ZodIssue[], labels: Readonly<Record<string, F>>, fields: readonly F[]): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const issue of issues) {
    const key = fields.find((f) => f === issue.path[0]);
    const placed = placeLabelled(issue.message, labels);
    const field = key ?? placed.field;
    if (field && errors[field] === undefined) errors[field] = placed.field ? placed.message : issue.message;
  }
  return errors;
}

// ── Counterparties ──

export const COUNTERPARTY_FIELDS = ['legal_form', 'name', 'full_name', 'inn', 'kpp', 'ogrn', 'roles', 'address', 'contact_name', 'phone', 'edo_id', 'note'] as const;
export type CounterpartyField = (typeof COUNTERPARTY_FIELDS)[number];

export const COUNTERPARTY_LABELS: Readonly<Record<string, CounterpartyField>> = {
  Форма: 'legal_form',
  Название: 'name',
  'Полное наименование': 'full_name',
  ИНН: 'inn',
  КПП: 'kpp',
  ОГРН: 'ogrn',
  ОГРНИП: 'ogrn',
  Роли: 'roles',
  'Юридический адрес': 'address',
  'Контактное лицо': 'contact_name',
  Телефон: 'phone',
  'Идентификатор ЭДО': 'edo_id',
  Примечание: 'note',
};

export interface CounterpartyValues {
  legal_form: LegalForm;
  name: string;
  full_name: string;
  inn: string;
  kpp: string;
  ogrn: string;
  roles: CounterpartyRole[];
  address: string;
  contact_name: string;
  phone: string;
  edo_id: string;
  note: string;
}

export function emptyCounterparty(roles: CounterpartyRole[] = ['customer']): CounterpartyValues {
  return { legal_form: 'ul', name: '', full_name: '', inn: '', kpp: '', ogrn: '', roles, address: '', contact_name: '', phone: '', edo_id: '', note: '' };
}

export function counterpartyValues(c: Counterparty): CounterpartyValues {
  return {
    legal_form: c.legal_form,
    name: c.name,
    full_name: c.full_name ?? '',
    inn: c.inn ?? '',
    kpp: c.kpp ?? '',
    ogrn: c.ogrn ?? '',
    roles: [...c.roles],
    address: c.address ?? '',
    contact_name: c.contact_name ?? '',
    phone: c.phone ?? '',
    edo_id: c.edo_id ?? '',
    note: c.note ?? '',
  };
}

/** The card's body (the whole card: POST and PUT alike); a field the legal form has not is sent empty. */
export function counterpartyBody(v: CounterpartyValues): CounterpartyValues {
  return { ...v, kpp: v.legal_form === 'ul' ? v.kpp : '', ogrn: v.legal_form === 'fl' ? '' : v.ogrn };
}

/** The card checked by the server's own schema (contract/requisites.ts), loaded beside the form. */
export async function checkCounterparty(v: CounterpartyValues): Promise<FieldErrors<CounterpartyField>> {
  const { counterpartySchema } = await import('../../../contract/requisites.ts');
  const checked = counterpartySchema.safeParse(counterpartyBody(v));
  return checked.success ? {} : issuesOf(checked.error.issues, COUNTERPARTY_LABELS, COUNTERPARTY_FIELDS);
}

// ── Places ──

export const PLACE_FIELDS = ['name', 'address', 'point', 'radius_m', 'counterparty_id', 'driver_note'] as const;
export type PlaceField = (typeof PLACE_FIELDS)[number];

export const PLACE_LABELS: Readonly<Record<string, PlaceField>> = {
  Название: 'name',
  Адрес: 'address',
  Координаты: 'point',
  Широта: 'point',
  Долгота: 'point',
  Радиус: 'radius_m',
  Контрагент: 'counterparty_id',
  'Заметка для водителя': 'driver_note',
};

export interface PlaceValues {
  name: string;
  address: string;
  /** The coordinates as typed or pasted (a map link, «55.7558, 37.6173»); empty: no point. */
  point: string;
  radius_m: string;
  counterparty: { id: number; name: string } | null;
  driver_note: string;
}

export interface PlaceBody {
  name: string;
  address: string;
  lat: number | null;
  lon: number | null;
  radius_m: number;
  counterparty_id: number | null;
  driver_note: string;
}

export function emptyPlace(name = ''): PlaceValues {
  return { name, address: '', point: '', radius_m: String(PLACE_RADIUS_DEFAULT_M), counterparty: null, driver_note: '' };
}

/** «55.755800, 37.617300» — a stored point as the field shows it (latitude first, as typed coordinates are read). */
export function pointText(lat: number | null, lon: number | null): string {
  return lat === null || lon === null ? '' : `${lat}, ${lon}`;
}

export function placeValues(p: Place): PlaceValues {
  return {
    name: p.name,
    address: p.address ?? '',
    point: pointText(p.lat, p.lon),
    radius_m: String(p.radius_m),
    counterparty: p.counterparty,
    driver_note: p.driver_note ?? '',
  };
}

export const MAP_SOURCE_LABELS: Record<MapSource, string> = {
  yandex: 'Яндекс Карты',
  '2gis': '2ГИС',
  google: 'Google Maps',
  osm: 'OpenStreetMap',
  geo: 'ссылка geo:',
  typed: 'введённые координаты',
};

/** What the coordinates field reads as typed: nothing yet, a point and where it came from, or why not. */
export function readPoint(text: string): { state: 'empty' } | { state: 'ok'; lat: number; lon: number; source: MapSource } | { state: 'bad'; reason: string } {
  if (text.trim() === '') return { state: 'empty' };
  const parsed = parsePoint(text);
  return parsed.ok ? { state: 'ok', ...parsed.point, source: parsed.source } : { state: 'bad', reason: parsed.reason };
}

/** The place's body, or the reason of each wrong field (the server checks the same again). */
export function placeBody(v: PlaceValues): { ok: true; body: PlaceBody } | { ok: false; errors: FieldErrors<PlaceField> } {
  const errors: FieldErrors<PlaceField> = {};
  if (v.name.trim() === '') errors.name = 'Обязательное поле';
  const point = readPoint(v.point);
  if (point.state === 'bad') errors.point = bare(point.reason, point.reason.split(':')[0] ?? '');
  const radiusText = v.radius_m.trim();
  const radius = radiusText === '' ? PLACE_RADIUS_DEFAULT_M : Number(radiusText.replace(/\s/g, ''));
  if (!Number.isInteger(radius) || radius < PLACE_RADIUS_MIN_M || radius > PLACE_RADIUS_MAX_M) {
    errors.radius_m = `Целое число метров от ${PLACE_RADIUS_MIN_M} до ${PLACE_RADIUS_MAX_M}`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    body: {
      name: v.name.trim(),
      address: v.address.trim(),
      lat: point.state === 'ok' ? point.lat : null,
      lon: point.state === 'ok' ? point.lon : null,
      radius_m: radius,
      counterparty_id: v.counterparty?.id ?? null,
      driver_note: v.driver_note.trim(),
    },
  };
}

// ── Vehicles ──

export const VEHICLE_FIELDS = [
  ...['plate', 'is_foreign', 'make', 'model', 'body_type', 'ownership', 'capacity_t', 'volume_m3', 'trailer_plate', 'is_active'] as const,
  ...['lease_doc_name', 'lease_doc_number', 'lease_doc_date', 'lessor_inn', 'trailer_type', 'trailer_make', 'trailer_capacity_t', 'trailer_volume_m3'] as const,
  ...['trailer_ownership', 'trailer_lease_doc_name', 'trailer_lease_doc_number', 'trailer_lease_doc_date', 'trailer_lessor_inn'] as const,
];
export type VehicleField = (typeof VEHICLE_FIELDS)[number];

export const VEHICLE_LABELS: Readonly<Record<string, VehicleField>> = {
  Госномер: 'plate',
  'Госномер прицепа': 'trailer_plate',
  'Иностранный номер': 'is_foreign',
  Марка: 'make',
  Модель: 'model',
  'Тип кузова': 'body_type',
  Владение: 'ownership',
  Грузоподъёмность: 'capacity_t',
  'Объём кузова': 'volume_m3',
  Активен: 'is_active',
  'Документ владения': 'lease_doc_name',
  'Номер документа владения': 'lease_doc_number',
  'Дата документа владения': 'lease_doc_date',
  'ИНН арендодателя': 'lessor_inn',
  'Тип прицепа': 'trailer_type',
  'Марка прицепа': 'trailer_make',
  'Грузоподъёмность прицепа': 'trailer_capacity_t',
  'Объём прицепа': 'trailer_volume_m3',
  'Владение прицепом': 'trailer_ownership',
  'Документ владения прицепом': 'trailer_lease_doc_name',
  'Номер документа владения прицепом': 'trailer_lease_doc_number',
  'Дата документа владения прицепом': 'trailer_lease_doc_date',
  'ИНН арендодателя прицепа': 'trailer_lessor_inn',
};

/** The card's texts the waybill reads (issue 33): the ownership document and the trailer. */
type PaperText =
  | 'lease_doc_name' | 'lease_doc_number' | 'lease_doc_date' | 'lessor_inn' | 'trailer_type' | 'trailer_make'
  | 'trailer_lease_doc_name' | 'trailer_lease_doc_number' | 'trailer_lease_doc_date' | 'trailer_lessor_inn';
const PAPER_TEXTS: readonly PaperText[] = [
  ...['lease_doc_name', 'lease_doc_number', 'lease_doc_date', 'lessor_inn', 'trailer_type', 'trailer_make'] as const,
  ...['trailer_lease_doc_name', 'trailer_lease_doc_number', 'trailer_lease_doc_date', 'trailer_lessor_inn'] as const,
];

export interface VehicleValues {
  plate: string;
  is_foreign: boolean;
  make: string;
  model: string;
  body_type: BodyType | '';
  ownership: Ownership | '';
  capacity_t: string;
  volume_m3: string;
  trailer_plate: string;
  is_active: boolean;
  /** YYYY-MM-DD or '' (a DateField). */
  lease_doc_date: string;
  lease_doc_name: string;
  lease_doc_number: string;
  lessor_inn: string;
  trailer_type: string;
  trailer_make: string;
  trailer_capacity_t: string;
  trailer_volume_m3: string;
  trailer_ownership: Ownership | '';
  trailer_lease_doc_name: string;
  trailer_lease_doc_number: string;
  trailer_lease_doc_date: string;
  trailer_lessor_inn: string;
}

export interface VehicleBody extends VehiclePaperFields {
  plate: string;
  is_foreign: boolean;
  make: string;
  model: string;
  body_type: BodyType | null;
  ownership: Ownership | null;
  capacity_t: number | null;
  volume_m3: number | null;
  trailer_plate: string | null;
  is_active: boolean;
}

export function emptyVehicle(): VehicleValues {
  return {
    ...{ plate: '', is_foreign: false, make: '', model: '', body_type: '', ownership: '', capacity_t: '', volume_m3: '', trailer_plate: '', is_active: true },
    ...{ lease_doc_name: '', lease_doc_number: '', lease_doc_date: '', lessor_inn: '', trailer_type: '', trailer_make: '', trailer_capacity_t: '', trailer_volume_m3: '' },
    ...{ trailer_ownership: '', trailer_lease_doc_name: '', trailer_lease_doc_number: '', trailer_lease_doc_date: '', trailer_lessor_inn: '' },
  };
}

export function vehicleValues(v: Vehicle): VehicleValues {
  return {
    plate: v.plate,
    is_foreign: v.is_foreign,
    make: v.make ?? '',
    model: v.model ?? '',
    body_type: v.body_type ?? '',
    ownership: v.ownership ?? '',
    capacity_t: quantityText(v.capacity_t),
    volume_m3: quantityText(v.volume_m3),
    trailer_plate: v.trailer_plate ?? '',
    is_active: v.is_active,
    ...(Object.fromEntries(PAPER_TEXTS.map((key) => [key, v[key] ?? ''])) as Record<PaperText, string>),
    trailer_capacity_t: quantityText(v.trailer_capacity_t),
    trailer_volume_m3: quantityText(v.trailer_volume_m3),
    trailer_ownership: v.trailer_ownership ?? '',
  };
}

/** What a plate field shows under itself as it is typed: the form it will be stored in, or why it is not a plate yet. */
export function plateHint(text: string, options: { foreign: boolean; trailer?: boolean; label?: string }): { ok: boolean; text: string } | null {
  if (text.trim() === '') return null;
  const parsed = parsePlate(text, options);
  return parsed.ok ? { ok: true, text: `Будет сохранён как ${parsed.plate.display}` } : { ok: false, text: bare(parsed.reason, options.label ?? 'Госномер') };
}

/** The vehicle's body, or the reason of each wrong field. */
export function vehicleBody(v: VehicleValues): { ok: true; body: VehicleBody } | { ok: false; errors: FieldErrors<VehicleField> } {
  const errors: FieldErrors<VehicleField> = {};
  const plate = parsePlate(v.plate, { foreign: v.is_foreign });
  if (!plate.ok) errors.plate = bare(plate.reason, 'Госномер');
  if (v.trailer_plate.trim() !== '') {
    const trailer = parsePlate(v.trailer_plate, { foreign: v.is_foreign, trailer: true, label: 'Госномер прицепа' });
    if (!trailer.ok) errors.trailer_plate = bare(trailer.reason, 'Госномер прицепа');
  }
  const inn = (key: 'lessor_inn' | 'trailer_lessor_inn'): string => {
    const digits = v[key].replace(/\s+/g, '');
    const problem = digits === '' ? null : innProblem(digits);
    if (problem) errors[key] = bare(problem, 'ИНН');
    return digits;
  };
  const lessor = inn('lessor_inn');
  const trailerLessor = inn('trailer_lessor_inn');
  const number = (key: 'capacity_t' | 'volume_m3' | 'trailer_capacity_t' | 'trailer_volume_m3'): number | null => {
    const parsed = parseQuantity(v[key]);
    if (!parsed.ok) errors[key] = parsed.error;
    else if (parsed.value === 0) errors[key] = 'Больше 0';
    return parsed.ok ? parsed.value : null;
  };
  const capacity = number('capacity_t');
  const volume = number('volume_m3');
  const trailerCapacity = number('trailer_capacity_t');
  const trailerVolume = number('trailer_volume_m3');
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const papers = Object.fromEntries(PAPER_TEXTS.map((key) => [key, v[key].trim() || null])) as Record<PaperText, string | null>;
  return {
    ok: true,
    body: {
      plate: v.plate,
      is_foreign: v.is_foreign,
      make: v.make.trim(),
      model: v.model.trim(),
      body_type: v.body_type || null,
      ownership: v.ownership || null,
      capacity_t: capacity,
      volume_m3: volume,
      trailer_plate: v.trailer_plate.trim() === '' ? null : v.trailer_plate,
      is_active: v.is_active,
      ...papers,
      lessor_inn: lessor || null,
      trailer_ownership: v.trailer_ownership || null,
      trailer_lessor_inn: trailerLessor || null,
      trailer_capacity_t: trailerCapacity,
      trailer_volume_m3: trailerVolume,
    },
  };
}
