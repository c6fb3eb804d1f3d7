/**
 * The facts of a trip's papers read from the database once (issue 32's proof of delivery, issue 33's waybill on
 * paper and as ЭТрН): the report, its task with the registers' links (customer, shipper, consignee, places), the
 * carrier's requisites, the driver's card and his fleet vehicle. The trip's timeline and acceptance come from the
 * report view (`TripFacts`), so the papers show exactly what /reports/{id} shows. Pure mappers turn this into each
 * renderer's facts (server/pdf/facts.ts, server/etrn/facts.ts).
 */
import type { Db } from '../db/connect.ts';
import type { Selectable } from 'kysely';
import type { CompaniesTable, CounterpartiesTable, PlacesTable, ReportsTable, TasksTable, VehiclesTable } from '../db/schema.ts';
import { notFound } from '../errors.ts';

type Row<T> = Selectable<T>;

export type PartyRow = Pick<Row<CounterpartiesTable>, 'id' | 'legal_form' | 'name' | 'full_name' | 'inn' | 'kpp' | 'ogrn' | 'address' | 'phone' | 'contact_name' | 'edo_id'>;
export type PlaceRow = Pick<Row<PlacesTable>, 'id' | 'name' | 'address' | 'lat' | 'lon'>;
const VEHICLE_COLUMNS = [
  ...['id', 'plate', 'plate_key', 'make', 'model', 'body_type', 'ownership', 'capacity_t', 'volume_m3', 'trailer_plate'] as const,
  ...['lease_doc_name', 'lease_doc_number', 'lease_doc_date', 'lessor_inn', 'trailer_type', 'trailer_make', 'trailer_capacity_t', 'trailer_volume_m3'] as const,
  ...['trailer_ownership', 'trailer_lease_doc_name', 'trailer_lease_doc_number', 'trailer_lease_doc_date', 'trailer_lessor_inn'] as const,
];
type VehicleRow = Pick<Row<VehiclesTable>, (typeof VEHICLE_COLUMNS)[number]>;

export interface TripBase {
  report: Pick<Row<ReportsTable>, 'id' | 'ticket_number' | 'quantity' | 'total_loading_quantity' | 'total_unloading_quantity' | 'completed_at' | 'created_at'> & { photo_keys: string[] };
  task: Pick<Row<TasksTable>, 'company_id' | 'date' | 'cargo' | 'loading_place' | 'unloading_place' | 'planned_quantity' | 'unit' | 'cargo_state' | 'cargo_packaging' | 'cargo_package_code'> & { id: number };
  company: Pick<Row<CompaniesTable>, 'id' | 'name' | 'full_name' | 'inn' | 'kpp' | 'ogrn' | 'address' | 'phone' | 'edo_id'>;
  customer: PartyRow | null;
  shipper: PartyRow | null;
  consignee: PartyRow | null;
  loading: PlaceRow | null;
  unloading: PlaceRow | null;
  driver: { id: number; name: string; phone: string | null; license_series: string | null; license_number: string | null; license_issued: string | null; inn: string | null };
  vehicle: VehicleRow | null;
}

const numberOrNull = (value: number | null): number | null => (value === null ? null : Number(value));

const PARTY_COLUMNS = ['id', 'legal_form', 'name', 'full_name', 'inn', 'kpp', 'ogrn', 'address', 'phone', 'contact_name', 'edo_id'] as const;

/** The trip's base facts; 404 `missing` when the report does not exist (the caller checked who may see it). */
export async function gatherTrip(db: Db, reportId: number, missing = 'Отчёт не найден'): Promise<TripBase> {
  const k = db.kysely;
  const row = await k
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select([
      'r.id',
      'r.ticket_number',
      'r.quantity',
      'r.total_loading_quantity',
      'r.total_unloading_quantity',
      'r.completed_at',
      'r.created_at',
      'r.driver_id',
      't.id as task_id',
      't.company_id',
      't.date',
      't.cargo',
      't.loading_place',
      't.unloading_place',
      't.planned_quantity',
      't.unit',
      't.cargo_state',
      't.cargo_packaging',
      't.cargo_package_code',
      't.customer_id',
      't.shipper_id',
      't.consignee_id',
      't.loading_place_id',
      't.unloading_place_id',
    ])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
  if (!row) throw notFound(missing);
  const partyIds = [row.customer_id, row.shipper_id, row.consignee_id].filter((id): id is number => id !== null);
  const placeIds = [row.loading_place_id, row.unloading_place_id].filter((id): id is number => id !== null);
  const [company, parties, places, driver, photos] = await Promise.all([
    k.selectFrom('companies').select(['id', 'name', 'full_name', 'inn', 'kpp', 'ogrn', 'address', 'phone', 'edo_id']).where('id', '=', row.company_id).executeTakeFirstOrThrow(),
    partyIds.length ? k.selectFrom('counterparties').select([...PARTY_COLUMNS]).where('id', 'in', partyIds).execute() : Promise.resolve([]),
    placeIds.length ? k.selectFrom('places').select(['id', 'name', 'address', 'lat', 'lon']).where('id', 'in', placeIds).execute() : Promise.resolve([]),
    k.selectFrom('users').select(['id', 'name', 'phone', 'license_series', 'license_number', 'license_issued', 'inn', 'vehicle_id']).where('id', '=', row.driver_id).executeTakeFirstOrThrow(),
    k.selectFrom('report_photos').select('storage_key').where('report_id', '=', reportId).orderBy('id').execute(),
  ]);
  const vehicle = driver.vehicle_id
    ? ((await k
        .selectFrom('vehicles')
        .select([...VEHICLE_COLUMNS])
        .where('id', '=', driver.vehicle_id)
        .executeTakeFirst()) ?? null)
    : null;
  const party = (id: number | null) => (parties.find((p) => p.id === id) as PartyRow | undefined) ?? null;
  const place = (id: number | null) => (places.find((p) => p.id === id) as PlaceRow | undefined) ?? null;
  return {
    report: {
      id: row.id,
      ticket_number: row.ticket_number,
      quantity: row.quantity === null ? null : Number(row.quantity),
      total_loading_quantity: row.total_loading_quantity === null ? null : Number(row.total_loading_quantity),
      total_unloading_quantity: row.total_unloading_quantity === null ? null : Number(row.total_unloading_quantity),
      completed_at: row.completed_at,
      created_at: row.created_at,
      photo_keys: photos.map((p) => p.storage_key),
    },
    task: {
      id: row.task_id,
      company_id: row.company_id,
      date: row.date,
      cargo: row.cargo,
      loading_place: row.loading_place,
      unloading_place: row.unloading_place,
      planned_quantity: Number(row.planned_quantity),
      unit: row.unit,
      cargo_state: row.cargo_state,
      cargo_packaging: row.cargo_packaging,
      cargo_package_code: row.cargo_package_code,
    },
    company,
    customer: party(row.customer_id),
    shipper: party(row.shipper_id),
    consignee: party(row.consignee_id),
    loading: place(row.loading_place_id),
    unloading: place(row.unloading_place_id),
    driver: { id: driver.id, name: driver.name, phone: driver.phone || null, license_series: driver.license_series, license_number: driver.license_number, license_issued: driver.license_issued, inn: driver.inn },
    vehicle: vehicle
      ? {
          ...vehicle,
          capacity_t: numberOrNull(vehicle.capacity_t),
          volume_m3: numberOrNull(vehicle.volume_m3),
          trailer_capacity_t: numberOrNull(vehicle.trailer_capacity_t),
          trailer_volume_m3: numberOrNull(vehicle.trailer_volume_m3),
        }
      : null,
  };
}
