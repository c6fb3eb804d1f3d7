/**
 * Trip sheets (contract/trip-sheets.ts, docs/trip-sheets.md): one per vehicle per day, numbered per company per year
 * without gaps (the next number taken in the insert's transaction; the unique index settles a race, retried), the
 * staff's check marks and times, the driver's odometer readings.
 */
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { Selectable } from 'kysely';
import { searchCondition } from '../tasks/search.ts';
import { plateCharacters } from '../../contract/plates.ts';
import type { TripSheetsTable } from '../db/schema-trip-sheets.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { toPage } from '../tasks/load.ts';
import type { Page } from '../../contract/entities.ts';
import { licenceText } from '../../contract/cargo-facts.ts';
import {
  missingTripSheet,
  tripSheetFilled,
  tripSheetProblems,
  type CheckMark,
  type OdometerPayload,
  type OdometerReading,
  type TripSheet,
  type TripSheetCreate,
  type TripSheetListQuery,
  type TripSheetUpdate,
} from '../../contract/trip-sheets.ts';
import {
  CHECK_KIND_LABELS,
  checkMoment,
  parseCheckList,
  sameDriver,
  type CheckImportOutcome,
  type CheckImportResult,
  type CheckKind,
  type CheckRow,
} from '../../contract/trip-sheet-checks.ts';

export const NO_SHEET = 'Путевой лист не найден';

type Row = Selectable<TripSheetsTable>;

const mark = (at: string | null, name: string | null): CheckMark | null => (at && name ? { at, name } : null);

async function wire(db: Db, rows: Row[]): Promise<TripSheet[]> {
  if (rows.length === 0) return [];
  const vehicles = await db.kysely
    .selectFrom('vehicles')
    .select(['id', 'plate', 'make', 'model', 'body_type', 'ownership', 'trailer_plate'])
    .where('id', 'in', [...new Set(rows.map((r) => r.vehicle_id))])
    .execute();
  const drivers = await db.kysely
    .selectFrom('users')
    .select(['id', 'name', 'license_series', 'license_number', 'license_issued'])
    .where('id', 'in', [...new Set(rows.map((r) => r.driver_id))])
    .execute();
  // The year's last number of each company: only that sheet, while empty, may be deleted.
  const lasts = await db.kysely
    .selectFrom('trip_sheets')
    .select(['company_id', 'year', (eb) => eb.fn.max('number').as('n')])
    .where('company_id', 'in', [...new Set(rows.map((r) => r.company_id))])
    .where('year', 'in', [...new Set(rows.map((r) => r.year))])
    .groupBy(['company_id', 'year'])
    .execute();
  const lastOf = new Map(lasts.map((l) => [`${l.company_id}/${l.year}`, Number(l.n)]));
  const vehicleOf = new Map(vehicles.map((v) => [v.id, v]));
  const driverOf = new Map(drivers.map((d) => [d.id, d]));
  return rows.map((r) => {
    const v = vehicleOf.get(r.vehicle_id);
    const d = driverOf.get(r.driver_id);
    const sheet: TripSheet = {
      id: r.id,
      company_id: r.company_id,
      number: r.number,
      year: r.year,
      date: r.date,
      vehicle: { id: r.vehicle_id, plate: v?.plate ?? '', make: v?.make ?? null, model: v?.model ?? null, body_type: v?.body_type ?? null, ownership: v?.ownership ?? null, trailer_plate: v?.trailer_plate ?? null },
      driver: { id: r.driver_id, name: d?.name ?? '', license_number: d ? licenceText(d.license_series, d.license_number) : null, license_issued: d?.license_issued ?? null },
      pre_medical: mark(r.pre_medical_at, r.pre_medical_name),
      pre_technical: mark(r.pre_technical_at, r.pre_technical_name),
      post_medical: mark(r.post_medical_at, r.post_medical_name),
      departure_at: r.departure_at,
      return_at: r.return_at,
      odometer_start: r.odometer_start === null ? null : Number(r.odometer_start),
      odometer_end: r.odometer_end === null ? null : Number(r.odometer_end),
      odometer_start_photo: r.odometer_start_photo !== null,
      odometer_end_photo: r.odometer_end_photo !== null,
      distance_km: r.odometer_start !== null && r.odometer_end !== null ? Number(r.odometer_end) - Number(r.odometer_start) : null,
      missing: [],
      can_delete: false,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
    sheet.missing = missingTripSheet(sheet);
    sheet.can_delete = !tripSheetFilled(sheet) && lastOf.get(`${r.company_id}/${r.year}`) === r.number;
    return sheet;
  });
}

export async function loadSheet(db: Db, id: number): Promise<TripSheet> {
  const row = await db.kysely.selectFrom('trip_sheets').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(NO_SHEET);
  return (await wire(db, [row]))[0] as TripSheet;
}

export async function sheetCompany(db: Db, id: number): Promise<{ company_id: number; driver_id: number }> {
  const row = await db.kysely.selectFrom('trip_sheets').select(['company_id', 'driver_id']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(NO_SHEET);
  return row;
}

export async function listSheets(db: Db, companyId: number, query: TripSheetListQuery): Promise<Page<TripSheet>> {
  let q = db.kysely.selectFrom('trip_sheets').where('company_id', '=', companyId);
  if (query.date) q = q.where('date', '=', query.date);
  if (query.vehicle_id) q = q.where('vehicle_id', '=', query.vehicle_id);
  const search = query.q;
  if (search) {
    // A plate fragment compared as plates are stored (no spaces, Latin look-alikes as Cyrillic), a name by any part.
    const plate = `%${plateCharacters(search)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('vehicle_id', 'in', eb.selectFrom('vehicles').select('id').where('company_id', '=', companyId).where('plate_key', 'like', plate)),
        eb('driver_id', 'in', eb.selectFrom('users').select('id').where('company_id', '=', companyId).where(searchCondition(db, search, ['name']))),
      ]),
    );
  }
  const [total, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    q.selectAll().orderBy('date', 'desc').orderBy('number', 'desc').limit(query.limit).offset(query.offset).execute(),
  ]);
  return toPage(await wire(db, rows), Number(total.n), query.offset);
}

export async function driverSheet(db: Db, driverId: number, date: string): Promise<TripSheet | null> {
  const row = await db.kysely.selectFrom('trip_sheets').selectAll().where('driver_id', '=', driverId).where('date', '=', date).orderBy('id', 'desc').executeTakeFirst();
  return row ? ((await wire(db, [row]))[0] as TripSheet) : null;
}

async function assertVehicleAndDriver(db: Db, companyId: number, vehicleId: number | undefined, driverId: number | undefined): Promise<void> {
  if (vehicleId !== undefined) {
    const v = await db.kysely.selectFrom('vehicles').select(['company_id', 'is_active']).where('id', '=', vehicleId).executeTakeFirst();
    if (!v || v.company_id !== companyId) throw badRequest('vehicle_id: машина не найдена в парке компании');
    if (!v.is_active) throw badRequest('vehicle_id: машина выведена из парка');
  }
  if (driverId !== undefined) {
    const d = await db.kysely.selectFrom('users').select(['company_id', 'role', 'is_active']).where('id', '=', driverId).executeTakeFirst();
    if (!d || d.company_id !== companyId || d.role !== 'driver') throw badRequest('driver_id: водитель не найден в компании');
    if (!d.is_active) throw badRequest('driver_id: водитель деактивирован');
  }
}

export async function createSheet(db: Db, companyId: number, body: TripSheetCreate): Promise<TripSheet> {
  await assertVehicleAndDriver(db, companyId, body.vehicle_id, body.driver_id);
  const year = Number(body.date.slice(0, 4));
  for (let attempt = 0; ; attempt++) {
    try {
      const id = await db.kysely.transaction().execute(async (trx) => {
        const taken = await trx.selectFrom('trip_sheets').select('number').where('vehicle_id', '=', body.vehicle_id).where('date', '=', body.date).executeTakeFirst();
        if (taken) throw conflict(`У этой машины на ${body.date.split('-').reverse().join('.')} уже есть путевой лист № ${taken.number}`);
        const last = await trx.selectFrom('trip_sheets').select((eb) => eb.fn.max('number').as('n')).where('company_id', '=', companyId).where('year', '=', year).executeTakeFirst();
        const now = nowIso();
        const row = await trx
          .insertInto('trip_sheets')
          .values({ company_id: companyId, vehicle_id: body.vehicle_id, driver_id: body.driver_id, date: body.date, year, number: Number(last?.n ?? 0) + 1, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
      return loadSheet(db, id);
    } catch (error) {
      // Two sheets numbered at once: the loser takes the next number; the same vehicle's day: said plainly.
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
      const again = await db.kysely.selectFrom('trip_sheets').select('number').where('vehicle_id', '=', body.vehicle_id).where('date', '=', body.date).executeTakeFirst();
      if (again) throw conflict(`У этой машины на ${body.date.split('-').reverse().join('.')} уже есть путевой лист № ${again.number}`);
    }
  }
}

function checked(sheet: TripSheet): void {
  const problems = tripSheetProblems(sheet);
  if (problems.length > 0) throw badRequest(problems.join('; '));
}

export async function updateSheet(db: Db, id: number, companyId: number, body: TripSheetUpdate): Promise<TripSheet> {
  await assertVehicleAndDriver(db, companyId, undefined, body.driver_id);
  const before = await loadSheet(db, id);
  const next: TripSheet = { ...before };
  if (body.pre_medical !== undefined) next.pre_medical = body.pre_medical;
  if (body.pre_technical !== undefined) next.pre_technical = body.pre_technical;
  if (body.post_medical !== undefined) next.post_medical = body.post_medical;
  if (body.departure_at !== undefined) next.departure_at = body.departure_at;
  if (body.return_at !== undefined) next.return_at = body.return_at;
  if (body.odometer_start !== undefined) next.odometer_start = body.odometer_start;
  if (body.odometer_end !== undefined) next.odometer_end = body.odometer_end;
  checked(next);
  await db.kysely
    .updateTable('trip_sheets')
    .set({
      ...(body.driver_id !== undefined ? { driver_id: body.driver_id } : {}),
      pre_medical_at: next.pre_medical?.at ?? null,
      pre_medical_name: next.pre_medical?.name ?? null,
      pre_technical_at: next.pre_technical?.at ?? null,
      pre_technical_name: next.pre_technical?.name ?? null,
      post_medical_at: next.post_medical?.at ?? null,
      post_medical_name: next.post_medical?.name ?? null,
      departure_at: next.departure_at,
      return_at: next.return_at,
      odometer_start: next.odometer_start,
      odometer_end: next.odometer_end,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
  return loadSheet(db, id);
}

/**
 * The driver's reading: the start one is also the departure time, the end one the return time. The same value again
 * answers the stored sheet (an outbox replay); another value over a stored one is refused (staff correct it).
 */
export async function recordOdometer(db: Db, id: number, which: OdometerReading, body: OdometerPayload, photoKey: string | null = null): Promise<{ sheet: TripSheet; photoKept: boolean }> {
  const before = await loadSheet(db, id);
  const stored = which === 'start' ? before.odometer_start : before.odometer_end;
  const photoColumn = which === 'start' ? 'odometer_start_photo' : 'odometer_end_photo';
  if (stored !== null) {
    if (stored === body.value) {
      // A replay: its photo is kept only when the stored reading has none (staff typed it before the phone's arrived).
      if (!photoKey || before[photoColumn]) return { sheet: before, photoKept: false };
      await db.kysely.updateTable('trip_sheets').set({ [photoColumn]: photoKey, updated_at: nowIso() }).where('id', '=', id).where(photoColumn, 'is', null).execute();
      return { sheet: await loadSheet(db, id), photoKept: true };
    }
    throw conflict(`Показание ${which === 'start' ? 'при выезде' : 'при возвращении'} уже записано: ${stored} км. Исправить его может диспетчер`);
  }
  if (which === 'end' && before.odometer_start === null) throw conflict('Сначала запишите показание одометра при выезде');
  const next: TripSheet =
    which === 'start'
      ? { ...before, odometer_start: body.value, departure_at: before.departure_at ?? body.at }
      : { ...before, odometer_end: body.value, return_at: before.return_at ?? body.at };
  checked(next);
  await db.kysely
    .updateTable('trip_sheets')
    .set(
      which === 'start'
        ? { odometer_start: next.odometer_start, departure_at: next.departure_at, odometer_start_photo: photoKey, updated_at: nowIso() }
        : { odometer_end: next.odometer_end, return_at: next.return_at, odometer_end_photo: photoKey, updated_at: nowIso() },
    )
    .where('id', '=', id)
    .execute();
  return { sheet: await loadSheet(db, id), photoKept: photoKey !== null };
}

/** The stored key of a reading's dashboard photo, or 404 in Russian. */
export async function odometerPhotoKey(db: Db, id: number, which: OdometerReading): Promise<string> {
  const row = await db.kysely.selectFrom('trip_sheets').select(['odometer_start_photo', 'odometer_end_photo']).where('id', '=', id).executeTakeFirst();
  const key = which === 'start' ? row?.odometer_start_photo : row?.odometer_end_photo;
  if (!key) throw notFound('Фото одометра нет');
  return key;
}

/** Only the year's last sheet, still empty, may go: the numbers run without gaps and a filled sheet is a record. */
export async function removeSheet(db: Db, id: number): Promise<void> {
  const sheet = await loadSheet(db, id);
  if (tripSheetFilled(sheet)) throw conflict(`Путевой лист № ${sheet.number} уже заполнен: удалить его нельзя`);
  const last = await db.kysely.selectFrom('trip_sheets').select((eb) => eb.fn.max('number').as('n')).where('company_id', '=', sheet.company_id).where('year', '=', sheet.year).executeTakeFirst();
  if (Number(last?.n) !== sheet.number) throw conflict(`Путевой лист № ${sheet.number} не последний в году: номера идут без пропусков, удалить можно только последний`);
  await db.kysely.deleteFrom('trip_sheets').where('id', '=', id).execute();
}

const KIND_COLUMNS: Record<CheckKind, { at: 'pre_medical_at' | 'pre_technical_at' | 'post_medical_at'; name: 'pre_medical_name' | 'pre_technical_name' | 'post_medical_name' }> = {
  pre_medical: { at: 'pre_medical_at', name: 'pre_medical_name' },
  pre_technical: { at: 'pre_technical_at', name: 'pre_technical_name' },
  post_medical: { at: 'post_medical_at', name: 'post_medical_name' },
};

const ru = (date: string) => date.split('-').reverse().join('.');
const clock = (iso: string, offsetMinutes: number) => new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString().slice(11, 16);

/**
 * The medic's or the mechanic's list onto the company's sheets (POST /trip-sheets/checks): each row matched to the
 * sheet of its day by the plate (the vehicle's) or the driver's name, its mark made there when the sheet has none
 * (a conditional update: a mark already there — typed by staff, or by an import at the same time — is never
 * overwritten). Each row answers recorded, unchanged (the same mark again) or refused with why, in Russian.
 */
export async function importChecks(db: Db, companyId: number, body: { kind: CheckKind; text: string; date?: string | undefined; offset_minutes: number }): Promise<CheckImportResult> {
  let rows: CheckRow[];
  try {
    rows = parseCheckList(body.text);
  } catch (error) {
    throw badRequest(`text: ${(error as Error).message}`);
  }
  if (rows.length === 0) throw badRequest('text: в списке нет строк после заголовка');
  const days = [...new Set(rows.map((r) => r.date ?? body.date).filter((d): d is string => d !== undefined && d !== null))];
  const sheets =
    days.length === 0
      ? []
      : await db.kysely
          .selectFrom('trip_sheets as s')
          .innerJoin('vehicles as v', 'v.id', 's.vehicle_id')
          .innerJoin('users as u', 'u.id', 's.driver_id')
          .select(['s.id', 's.number', 's.date', 'v.plate_key', 'u.name as driver_name'])
          .where('s.company_id', '=', companyId)
          .where('s.date', 'in', days)
          .execute();
  const columns = KIND_COLUMNS[body.kind];
  const outcomes: CheckImportOutcome[] = [];
  for (const row of rows) {
    const refuse = (detail: string, sheet: { id: number; number: number } | null = null) =>
      outcomes.push({ line: row.line, outcome: 'refused', sheet_id: sheet?.id ?? null, sheet_number: sheet?.number ?? null, detail });
    const date = row.date ?? body.date ?? null;
    if (row.problem) {
      refuse(row.problem);
      continue;
    }
    if (!date) {
      refuse('не указана дата: нет столбца «Дата» и не выбран день списка');
      continue;
    }
    const who = row.plate ? `машины ${row.plate}` : `водителя ${row.driver}`;
    const matches = sheets.filter((s) => s.date === date && (row.plate ? s.plate_key === plateCharacters(row.plate) : sameDriver(row.driver as string, s.driver_name)));
    const [sheet] = matches;
    if (!sheet) {
      refuse(`нет путевого листа ${who} на ${ru(date)}`);
      continue;
    }
    if (matches.length > 1) {
      refuse(`подходят несколько путевых листов ${who} на ${ru(date)}: ${matches.map((m) => `№ ${m.number}`).join(', ')} — укажите госномер`);
      continue;
    }
    if (row.refused) {
      refuse(`${body.kind === 'pre_technical' ? 'машина не выпущена' : 'водитель не допущен'} — отметка не ставится`, sheet);
      continue;
    }
    const mark = { at: checkMoment(date, row.time as string, body.offset_minutes), name: row.name as string };
    const before = await loadSheet(db, sheet.id);
    const stored = before[body.kind];
    if (stored) {
      if (Date.parse(stored.at) === Date.parse(mark.at) && stored.name === mark.name) {
        outcomes.push({ line: row.line, outcome: 'unchanged', sheet_id: sheet.id, sheet_number: sheet.number, detail: null });
      } else {
        refuse(`${CHECK_KIND_LABELS[body.kind]} уже отмечен: ${clock(stored.at, body.offset_minutes)}, ${stored.name} — исправить можно в путевом листе`, sheet);
      }
      continue;
    }
    const problems = tripSheetProblems({ ...before, [body.kind]: mark });
    if (problems.length > 0) {
      refuse(problems.map((p) => p.replace(/^\w+: /, '')).join('; '), sheet);
      continue;
    }
    const done = await db.kysely
      .updateTable('trip_sheets')
      .set({ [columns.at]: mark.at, [columns.name]: mark.name, updated_at: nowIso() })
      .where('id', '=', sheet.id)
      .where(columns.at, 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 1) outcomes.push({ line: row.line, outcome: 'recorded', sheet_id: sheet.id, sheet_number: sheet.number, detail: null });
    else refuse(`${CHECK_KIND_LABELS[body.kind]} уже отмечен — исправить можно в путевом листе`, sheet);
  }
  return { recorded: outcomes.filter((o) => o.outcome === 'recorded').length, outcomes };
}
