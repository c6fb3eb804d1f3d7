/** A company's counterparties (docs/registers.md): the list, a card saved, a card removed or archived. */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { conflict } from '../errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { searchCondition } from '../tasks/search.ts';
import type { Page } from '../../contract/entities.ts';
import type { Counterparty, RegisterRemoval } from '../../contract/registers.ts';
import { COUNTERPARTY_ROLES, type CounterpartyPayload, type CounterpartyRole } from '../../contract/requisites.ts';
import type { z } from 'zod';
import type { counterpartyListQuery } from '../../contract/registers.ts';
import { archivedOp, cardStamps, pageOf, removeOrArchive, unarchive } from './common.ts';

const USES = sql<number>`(select count(*) from tasks t where t.customer_id = c.id or t.shipper_id = c.id or t.consignee_id = c.id)`;

function select(db: Kysely<Database>) {
  return db.selectFrom('counterparties as c').selectAll('c').select(USES.as('task_count'));
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;

/** The roles as stored (a JSON list), in the list's own order; anything else read is dropped. */
export function rolesOf(json: string): CounterpartyRole[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? COUNTERPARTY_ROLES.filter((r) => parsed.includes(r)) : [];
}

function toCounterparty(row: Row): Counterparty {
  return {
    id: row.id,
    company_id: row.company_id,
    legal_form: row.legal_form,
    name: row.name,
    full_name: row.full_name,
    inn: row.inn,
    kpp: row.kpp,
    ogrn: row.ogrn,
    roles: rolesOf(row.roles),
    address: row.address,
    contact_name: row.contact_name,
    phone: row.phone,
    edo_id: row.edo_id,
    note: row.note,
    ...cardStamps(row),
  };
}

export async function loadCounterparty(db: Db, id: number): Promise<Counterparty> {
  return toCounterparty(await select(db.kysely).where('c.id', '=', id).executeTakeFirstOrThrow());
}

export async function listCounterparties(db: Db, companyId: number, query: z.output<typeof counterpartyListQuery>): Promise<Page<Counterparty>> {
  let list = select(db.kysely).where('c.company_id', '=', companyId).where('c.archived_at', archivedOp(query.archived), null);
  // Roles are a JSON list of known words: the quoted word is in it or not.
  if (query.role) list = list.where('c.roles', 'like', `%"${query.role}"%`);
  if (query.q) {
    const digits = query.q.replace(/\s+/g, '');
    const q = query.q;
    list = list.where((eb) =>
      /^\d+$/.test(digits) ? eb.or([eb('c.inn', 'like', `${digits}%`), searchCondition(db, q, ['c.name'])]) : searchCondition(db, q, ['c.name', 'c.full_name']),
    );
  }
  return pageOf(list.clearSelect(), list.orderBy('c.name').orderBy('c.id'), query, toCounterparty);
}

/** The card that holds this ИНН + КПП in the company (another than `exceptId`), if any. */
async function sameRequisites(db: Db, companyId: number, card: CounterpartyPayload, exceptId: number) {
  if (card.inn === null) return undefined;
  return db.kysely
    .selectFrom('counterparties')
    .select(['id', 'name', 'archived_at'])
    .where('company_id', '=', companyId)
    .where('inn', '=', card.inn)
    .where(sql<string>`coalesce(kpp, '')`, '=', card.kpp ?? '')
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

function duplicate(card: CounterpartyPayload, other: { id: number; name: string; archived_at: string | null }) {
  const numbers = card.kpp ? `ИНН ${card.inn} и КПП ${card.kpp}` : `ИНН ${card.inn}`;
  return conflict(`ИНН: контрагент с ${numbers} уже есть — «${other.name}» (№${other.id}${other.archived_at ? ', в архиве' : ''})`);
}

/** Saves a card: a new one (`id` null) or the whole card of an existing one; a duplicate ИНН + КПП is 409. */
export async function saveCounterparty(db: Db, companyId: number, id: number | null, card: CounterpartyPayload): Promise<Counterparty> {
  const other = await sameRequisites(db, companyId, card, id ?? 0);
  if (other) throw duplicate(card, other);
  const now = nowIso();
  const values = { ...card, roles: JSON.stringify(card.roles), updated_at: now };
  try {
    if (id === null) {
      const row = await db.kysely
        .insertInto('counterparties')
        .values({ ...values, company_id: companyId, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return loadCounterparty(db, row.id);
    }
    await db.kysely.updateTable('counterparties').set(values).where('id', '=', id).execute();
    return loadCounterparty(db, id);
  } catch (error) {
    // Two cards of the same numbers saved at once: the database lets one in.
    if (!isUniqueViolation(error)) throw error;
    const winner = await sameRequisites(db, companyId, card, id ?? 0);
    throw winner ? duplicate(card, winner) : error;
  }
}

/** Erased when no task or place names it; else archived. */
export async function removeCounterparty(db: Db, id: number, companyId: number): Promise<RegisterRemoval> {
  const task = await db.kysely
    .selectFrom('tasks')
    .select('id')
    .where((eb) => eb.or([eb('customer_id', '=', id), eb('shipper_id', '=', id), eb('consignee_id', '=', id)]))
    .executeTakeFirst();
  const place = await db.kysely.selectFrom('places').select('id').where('counterparty_id', '=', id).executeTakeFirst();
  return removeOrArchive(db, 'counterparties', id, companyId, Boolean(task || place), {
    archived: 'Контрагент в архиве: его называют задачи или места, они его сохраняют; для новых задач он не предлагается',
    deleted: 'Контрагент удалён: его не называла ни одна задача',
  });
}

/** An archived counterparty back in use (its ИНН + КПП stayed its own while archived: no conflict is possible). */
export async function restoreCounterparty(db: Db, id: number): Promise<Counterparty> {
  await unarchive(db.kysely, 'counterparties', id);
  return loadCounterparty(db, id);
}
