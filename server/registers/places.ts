/** A company's places of loading and unloading (docs/registers.md): the list, a card saved, removed or archived. */
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict } from '../errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { searchCondition } from '../tasks/search.ts';
import type { Page } from '../../contract/entities.ts';
import { placeKey, type Place, type PlacePayload, type placeListQuery, type RegisterRemoval } from '../../contract/registers.ts';
import { archivedOp, cardStamps, pageOf, removeOrArchive, unarchive } from './common.ts';

const USES = sql<number>`(select count(*) from tasks t where t.loading_place_id = p.id or t.unloading_place_id = p.id)`;

function select(db: Kysely<Database>) {
  return db
    .selectFrom('places as p')
    .leftJoin('counterparties as c', 'c.id', 'p.counterparty_id')
    .selectAll('p')
    .select(['c.name as counterparty_name', USES.as('task_count')]);
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;

function toPlace(row: Row): Place {
  return {
    id: row.id,
    company_id: row.company_id,
    name: row.name,
    address: row.address,
    lat: row.lat,
    lon: row.lon,
    radius_m: row.radius_m,
    counterparty_id: row.counterparty_id,
    counterparty: row.counterparty_id !== null && row.counterparty_name !== null ? { id: row.counterparty_id, name: row.counterparty_name } : null,
    driver_note: row.driver_note,
    ...cardStamps(row),
  };
}

export async function loadPlace(db: Db, id: number): Promise<Place> {
  return toPlace(await select(db.kysely).where('p.id', '=', id).executeTakeFirstOrThrow());
}

export async function listPlaces(db: Db, companyId: number, query: z.output<typeof placeListQuery>): Promise<Page<Place>> {
  let list = select(db.kysely).where('p.company_id', '=', companyId).where('p.archived_at', archivedOp(query.archived), null);
  if (query.counterparty_id !== undefined) list = list.where('p.counterparty_id', '=', query.counterparty_id);
  if (query.q) {
    const q = query.q;
    list = list.where(() => searchCondition(db, q, ['p.name', 'p.address']));
  }
  return pageOf(list.clearSelect(), list.orderBy('p.name').orderBy('p.id'), query, toPlace);
}

/** The place in use of this name in the company (another than `exceptId`), if any. */
function sameName(db: Kysely<Database>, companyId: number, key: string, exceptId: number) {
  return db
    .selectFrom('places')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .where('name_key', '=', key)
    .where('archived_at', 'is', null)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

const duplicate = (other: { id: number; name: string }) => conflict(`Название: место «${other.name}» уже есть (№${other.id})`);

/**
 * Saves a place: a new one (`id` null) or the whole card of an existing one. Its owner must be a counterparty of the
 * company, one in use unless it already owned the place; a name in use is 409. Inside the caller's transaction (the
 * import creates places in its own); answers the place's id.
 */
export async function savePlace(trx: Kysely<Database>, companyId: number, id: number | null, card: PlacePayload): Promise<number> {
  if (card.counterparty_id !== null) {
    const owner = await trx.selectFrom('counterparties').select(['company_id', 'archived_at']).where('id', '=', card.counterparty_id).executeTakeFirst();
    const had = id === null ? undefined : await trx.selectFrom('places').select('counterparty_id').where('id', '=', id).executeTakeFirst();
    if (!owner || owner.company_id !== companyId) throw badRequest('Контрагент: не найден в компании');
    if (owner.archived_at !== null && had?.counterparty_id !== card.counterparty_id) throw badRequest('Контрагент: в архиве — выберите другого');
  }
  const key = placeKey(card.name);
  const other = await sameName(trx, companyId, key, id ?? 0);
  if (other) throw duplicate(other);
  const now = nowIso();
  const values = { ...card, name_key: key, updated_at: now };
  try {
    if (id === null) {
      const row = await trx.insertInto('places').values({ ...values, company_id: companyId, created_at: now }).returning('id').executeTakeFirstOrThrow();
      return row.id;
    }
    await trx.updateTable('places').set(values).where('id', '=', id).execute();
    // The tasks that go there read its name (their text follows the place).
    await trx.updateTable('tasks').set({ loading_place: card.name }).where('loading_place_id', '=', id).execute();
    await trx.updateTable('tasks').set({ unloading_place: card.name }).where('unloading_place_id', '=', id).execute();
    return id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await sameName(trx, companyId, key, id ?? 0);
    throw winner ? duplicate(winner) : error;
  }
}

/** Erased when no task goes there; else archived. */
export async function removePlace(db: Db, id: number, companyId: number): Promise<RegisterRemoval> {
  const task = await db.kysely
    .selectFrom('tasks')
    .select('id')
    .where((eb) => eb.or([eb('loading_place_id', '=', id), eb('unloading_place_id', '=', id)]))
    .executeTakeFirst();
  return removeOrArchive(db, 'places', id, companyId, Boolean(task), {
    archived: 'Место в архиве: задачи, которые туда едут, его сохраняют; для новых задач оно не предлагается',
    deleted: 'Место удалено: ни одна задача туда не ехала',
  });
}

/** An archived place back in use; 409 when a place in use has taken its name meanwhile (rename one of them first). */
export async function restorePlace(db: Db, id: number, companyId: number): Promise<Place> {
  const place = await db.kysely.selectFrom('places').select(['name_key', 'archived_at']).where('id', '=', id).executeTakeFirstOrThrow();
  if (place.archived_at !== null) {
    const other = await sameName(db.kysely, companyId, place.name_key, id);
    if (other) throw conflict(`Название: место «${other.name}» уже есть (№${other.id}) — переименуйте одно из них, чтобы восстановить это`);
    try {
      await unarchive(db.kysely, 'places', id);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw conflict('Название: место с таким названием уже есть — переименуйте одно из них, чтобы восстановить это');
    }
  }
  return loadPlace(db, id);
}
