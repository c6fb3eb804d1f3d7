/**
 * A customer's price list (docs/prices.md): its lines read with their versions' periods, a line added or changed.
 * A change takes effect from the line's day (and the day it is moved to): one on or before the company's latest
 * closed payroll month is refused with a 409 naming the month, so a closed period's prices never move.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { AuthUser } from '../auth/guard.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { closedText, firstOpenDay, latestClosed } from '../payroll/months.ts';
import { rolesOf } from '../registers/counterparties.ts';
import { fromKop, monthOf, toKop } from '../../contract/money.ts';
import { placeKey } from '../../contract/registers.ts';
import { dateText } from './task-price.ts';
import { sameKey, type PriceLine, type PriceLineCreate, type PriceLinePayload, type PriceList } from '../../contract/prices.ts';

type Q = Kysely<Database>;

export const NO_CUSTOMER = 'Заказчик не найден';
export const NO_LINE = 'Строка прайса не найдена';


function linesQuery(db: Q) {
  return db
    .selectFrom('price_lines as l')
    .leftJoin('places as lp', 'lp.id', 'l.loading_place_id')
    .leftJoin('places as up', 'up.id', 'l.unloading_place_id')
    .selectAll('l')
    .select(['lp.name as loading_name', 'up.name as unloading_name']);
}
export type LineRow = Awaited<ReturnType<ReturnType<typeof linesQuery>['executeTakeFirstOrThrow']>>;

/** The customer's lines as stored, oldest version first. */
export async function customerLines(db: Q, counterpartyId: number): Promise<LineRow[]> {
  return linesQuery(db).where('l.counterparty_id', '=', counterpartyId).orderBy('l.valid_from').orderBy('l.id').execute();
}

const dayBefore = (iso: string): string => new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** The wire lines: each with the day before its next version (same cargo, route and unit) and whether it is frozen. */
export function toLines(rows: readonly LineRow[], closed: string | null): PriceLine[] {
  return rows.map((row) => {
    const next = rows.filter((other) => sameKey(other, row) && other.valid_from > row.valid_from).map((other) => other.valid_from).sort()[0];
    return {
      id: row.id,
      company_id: row.company_id,
      counterparty_id: row.counterparty_id,
      cargo: row.cargo,
      loading_place_id: row.loading_place_id,
      unloading_place_id: row.unloading_place_id,
      loading_place: row.loading_place_id !== null ? { id: row.loading_place_id, name: row.loading_name ?? '' } : null,
      unloading_place: row.unloading_place_id !== null ? { id: row.unloading_place_id, name: row.unloading_name ?? '' } : null,
      unit: row.unit,
      price: fromKop(Number(row.price_kop)),
      vat_mode: row.vat_mode,
      vat_rate: row.vat_rate,
      free_minutes: row.free_minutes,
      valid_from: row.valid_from,
      valid_to: next === undefined ? null : dayBefore(next),
      frozen: closed !== null && monthOf(row.valid_from) <= closed,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

/** The customer (a counterparty of the caller's company) or 404; a counterparty without the customer's role is 400. */
export async function customerCompany(db: Q, user: AuthUser, counterpartyId: number): Promise<number> {
  const row = await db.selectFrom('counterparties').select(['company_id', 'roles']).where('id', '=', counterpartyId).executeTakeFirst();
  if (!row) throw notFound(NO_CUSTOMER);
  assertStaffSeesCompany(user, row.company_id, NO_CUSTOMER);
  if (!rolesOf(row.roles).includes('customer')) throw badRequest('Заказчик: у контрагента нет роли «Заказчик» — отметьте её в его карточке');
  return row.company_id;
}

export async function priceList(db: Db, user: AuthUser, counterpartyId: number): Promise<PriceList> {
  const companyId = await customerCompany(db.kysely, user, counterpartyId);
  const [rows, closed, open] = await Promise.all([customerLines(db.kysely, counterpartyId), latestClosed(db.kysely, companyId), firstOpenDay(db.kysely, companyId)]);
  return { company_id: companyId, counterparty_id: counterpartyId, first_open_day: open, lines: toLines(rows, closed) };
}

/** A change from `date` is refused when that day is on or before the latest closed month. */
async function assertOpenFrom(db: Q, companyId: number, date: string, what: string): Promise<void> {
  const closed = await latestClosed(db, companyId);
  if (closed !== null && monthOf(date) <= closed) {
    const open = (await firstOpenDay(db, companyId)) as string;
    throw conflict(`${what} с ${dateText(date)}: ${closedText(closed).toLowerCase()} (расчёт с водителями) — цены закрытого периода не меняются. Новая цена возможна с ${dateText(open)}`);
  }
}

async function assertPlace(db: Q, companyId: number, id: number | null, field: string): Promise<void> {
  if (id === null) return;
  const row = await db.selectFrom('places').select('company_id').where('id', '=', id).executeTakeFirst();
  if (!row || row.company_id !== companyId) throw badRequest(`${field}: место не найдено`);
}

function values(line: PriceLinePayload) {
  return {
    cargo: line.cargo,
    cargo_key: line.cargo === null ? '' : placeKey(line.cargo),
    loading_place_id: line.loading_place_id,
    unloading_place_id: line.unloading_place_id,
    unit: line.unit,
    price_kop: toKop(line.price),
    vat_mode: line.vat_mode,
    vat_rate: line.vat_rate,
    free_minutes: line.free_minutes,
    valid_from: line.valid_from,
  };
}

async function loadLine(db: Q, id: number): Promise<PriceLine> {
  const row = await linesQuery(db).where('l.id', '=', id).executeTakeFirstOrThrow();
  const [rows, closed] = await Promise.all([customerLines(db, row.counterparty_id), latestClosed(db, row.company_id)]);
  return toLines(rows, closed).find((l) => l.id === id) as PriceLine;
}

function duplicate(line: PriceLinePayload): Error {
  return conflict(`Цена на это (груз, маршрут, единица) с ${dateText(line.valid_from)} уже есть в прайсе: измените её или выберите другую дату`);
}

/** POST /price-lists/: a new line (a new version when its cargo, route and unit are already priced). */
export async function addLine(db: Db, user: AuthUser, body: PriceLineCreate): Promise<PriceLine> {
  const { counterparty_id, ...line } = body;
  const companyId = await customerCompany(db.kysely, user, counterparty_id);
  await assertPlace(db.kysely, companyId, line.loading_place_id, 'Место погрузки');
  await assertPlace(db.kysely, companyId, line.unloading_place_id, 'Место выгрузки');
  await assertOpenFrom(db.kysely, companyId, line.valid_from, 'Цену нельзя ввести');
  const now = nowIso();
  try {
    const row = await db.kysely
      .insertInto('price_lines')
      .values({ ...values(line), company_id: companyId, counterparty_id, created_by: user.id, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return loadLine(db.kysely, row.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(line);
    throw error;
  }
}

/** PUT /price-lists/{id}: the whole line; refused when it starts (or would start) in a closed period. */
export async function changeLine(db: Db, user: AuthUser, id: number, line: PriceLinePayload): Promise<PriceLine> {
  const current = await db.kysely.selectFrom('price_lines').select(['company_id', 'valid_from']).where('id', '=', id).executeTakeFirst();
  if (!current) throw notFound(NO_LINE);
  assertStaffSeesCompany(user, current.company_id, NO_LINE);
  await assertOpenFrom(db.kysely, current.company_id, current.valid_from, 'Строку прайса нельзя изменить: она действует');
  await assertOpenFrom(db.kysely, current.company_id, line.valid_from, 'Строку прайса нельзя перенести на дату');
  await assertPlace(db.kysely, current.company_id, line.loading_place_id, 'Место погрузки');
  await assertPlace(db.kysely, current.company_id, line.unloading_place_id, 'Место выгрузки');
  try {
    await db.kysely.updateTable('price_lines').set({ ...values(line), updated_at: nowIso() }).where('id', '=', id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(line);
    throw error;
  }
  return loadLine(db.kysely, id);
}
