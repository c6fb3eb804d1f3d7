/**
 * The Excel import against the registers (docs/task-entry.md, docs/registers.md): each row's loading and unloading
 * places by name (`placeKey`) and its customer («заказчик»: an ИНН, an exact name, or both) matched to the
 * company's cards in use. A row naming one the registers have not is an error saying what is missing — or, with
 * «Создать недостающие», a row that creates it (a place by its name; a counterparty by its name and ИНН, which a
 * new card needs) in the import's own transaction.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/connect.ts';
import type { TaskCreate } from '../../contract/driver.ts';
import type { ImportNewCard } from '../../contract/calls/tasks.ts';
import { placeKey } from '../../contract/registers.ts';
import { innProblem } from '../../contract/requisites.ts';
import { rolesOf } from '../registers/counterparties.ts';
import type { ImportRow, ImportRowError } from './import-xlsx.ts';

type Q = Kysely<Database>;

/** A row matched to the registers: its task with the links it found, what it lacks, what it would create. */
export interface LinkedRow extends ImportRow {
  creates: ImportNewCard[];
  customerName: string | null;
}

/** What a «заказчик» cell says: an ИНН (10 or 12 digits anywhere in it) and the name around it. */
export function readParty(cell: string): { name: string | null; inn: string | null } {
  const inn = /(?<!\d)(\d{12}|\d{10})(?!\d)/.exec(cell)?.[1] ?? null;
  if (inn === null) return { name: cell.trim() || null, inn: null };
  const name = cell
    .replace(inn, ' ')
    .replace(/\bИНН\b:?/giu, ' ')
    .replace(/^[\s,;:–—-]+|[\s,;:–—(-]+$/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { name: name === '' ? null : name, inn };
}

const cardKey = (card: ImportNewCard) => `${card.kind}\u0000${card.inn ?? ''}\u0000${placeKey(card.name)}`;

const MISSING = 'или отметьте «Создать недостающие»';

/**
 * Each valid row matched to the company's registers (`rows` as the file was read). Rows with an unknown card get an
 * error naming it unless `createMissing`; then they list it in `creates`.
 */
export async function linkImportRows(q: Q, companyId: number, rows: readonly ImportRow[], createMissing: boolean): Promise<LinkedRow[]> {
  const places = await q.selectFrom('places').select(['id', 'name_key']).where('company_id', '=', companyId).where('archived_at', 'is', null).execute();
  const placeByKey = new Map(places.map((p) => [p.name_key, p.id]));
  const parties = (await q.selectFrom('counterparties').select(['id', 'name', 'inn', 'roles', 'archived_at']).where('company_id', '=', companyId).orderBy('id').execute()).map(
    (c) => ({ ...c, key: placeKey(c.name), roles: rolesOf(c.roles) }),
  );

  // A new customer named with its ИНН in one row may be named by either alone in the others: one card.
  const named = new Map<string, { name: string; inn: string }>();
  for (const row of rows) {
    const party = row.customer ? readParty(row.customer) : null;
    if (party?.name && party.inn && !innProblem(party.inn)) {
      named.set(party.inn, { name: party.name, inn: party.inn });
      named.set(placeKey(party.name), { name: party.name, inn: party.inn });
    }
  }

  return rows.map((row) => {
    if (!row.task) return { ...row, creates: [], customerName: null };
    const task: TaskCreate = { ...row.task };
    const errors: ImportRowError[] = [];
    const creates: ImportNewCard[] = [];
    let customerName: string | null = null;

    for (const [field, header, words] of [
      ['loading_place', 'место погрузки', 'погрузки'],
      ['unloading_place', 'место выгрузки', 'выгрузки'],
    ] as const) {
      const name = task[field] ?? '';
      const id = placeByKey.get(placeKey(name));
      if (id !== undefined) task[`${field}_id`] = id;
      else if (createMissing) creates.push({ kind: 'place', name, inn: null });
      else errors.push({ field: header, detail: `места ${words} «${name}» нет в «Местах» — добавьте его ${MISSING}` });
    }

    if (row.customer) {
      const { name, inn } = readParty(row.customer);
      const problem = inn === null ? null : innProblem(inn);
      const key = name === null ? null : placeKey(name);
      const matches = parties.filter((c) => (inn !== null ? c.inn === inn : c.key === key));
      const inUse = matches.filter((c) => c.archived_at === null);
      const card = inUse.find((c) => key === null || c.key === key) ?? inUse[0];
      const shown = name ?? `ИНН ${inn}`;
      if (problem) errors.push({ field: 'заказчик', detail: `${problem} (${inn})` });
      else if (inn === null && inUse.length > 1) errors.push({ field: 'заказчик', detail: `несколько контрагентов «${name}» — укажите ИНН` });
      else if (card && !card.roles.includes('customer')) errors.push({ field: 'заказчик', detail: `«${card.name}» не отмечен как заказчик — отметьте роль в «Контрагентах»` });
      else if (card) {
        task.customer_id = card.id;
        customerName = card.name;
      } else if (matches.length > 0) errors.push({ field: 'заказчик', detail: `«${matches[0]?.name}» в архиве — верните его из архива в «Контрагентах»` });
      else if (!createMissing) errors.push({ field: 'заказчик', detail: `контрагента «${shown}» нет в «Контрагентах» — добавьте его ${MISSING}` });
      else if (named.has(inn ?? key ?? '')) {
        const card = named.get(inn ?? key ?? '') as { name: string; inn: string };
        creates.push({ kind: 'counterparty', ...card });
        customerName = card.name;
      } else if (name === null || inn === null) {
        errors.push({
          field: 'заказчик',
          detail: name === null ? `контрагента с ИНН ${inn} нет — чтобы создать его, укажите и название: «ООО Гранит, ${inn}»` : `контрагента «${name}» нет — чтобы создать его, укажите и ИНН: «${name}, 7707083893»`,
        });
      } else {
        creates.push({ kind: 'counterparty', name, inn });
        customerName = name;
      }
    }

    if (errors.length > 0) return { ...row, task: null, errors: [...row.errors, ...errors], creates: [], customerName: null };
    return { ...row, task, creates, customerName };
  });
}

/** Every card the valid rows would create, each once (the same name, or ИНН and name, in many rows is one card). */
export function cardsToCreate(rows: readonly LinkedRow[]): ImportNewCard[] {
  const seen = new Map<string, ImportNewCard>();
  for (const row of rows) if (row.task) for (const card of row.creates) if (!seen.has(cardKey(card))) seen.set(cardKey(card), card);
  return [...seen.values()];
}

/**
 * Inside the import's transaction: the missing cards created (found if made meanwhile) and the rows' tasks linked to
 * them. Answers the tasks to insert and the cards it created.
 */
export async function createMissingCards(trx: Q, companyId: number, rows: readonly LinkedRow[]): Promise<{ tasks: TaskCreate[]; created: ImportNewCard[] }> {
  const ids = new Map<string, number>();
  const created: ImportNewCard[] = [];
  const now = nowIso();
  for (const card of cardsToCreate(rows)) {
    if (card.kind === 'place') {
      const key = placeKey(card.name);
      const found = await trx.selectFrom('places').select('id').where('company_id', '=', companyId).where('name_key', '=', key).where('archived_at', 'is', null).executeTakeFirst();
      const id =
        found?.id ??
        (await trx.insertInto('places').values({ company_id: companyId, name: card.name, name_key: key, radius_m: 150, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id;
      if (!found) created.push(card);
      ids.set(cardKey(card), id);
      continue;
    }
    const inn = card.inn as string;
    const found = await trx.selectFrom('counterparties').select('id').where('company_id', '=', companyId).where('inn', '=', inn).orderBy('id').executeTakeFirst();
    const id =
      found?.id ??
      (
        await trx
          .insertInto('counterparties')
          .values({ company_id: companyId, legal_form: inn.length === 10 ? 'ul' : 'ip', name: card.name, inn, roles: JSON.stringify(['customer']), note: 'Создан импортом задач из Excel', created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    if (!found) created.push(card);
    ids.set(cardKey(card), id);
  }
  const tasks = rows.flatMap((row) => {
    if (!row.task) return [];
    const task = { ...row.task };
    for (const card of row.creates) {
      const id = ids.get(cardKey(card));
      if (card.kind === 'counterparty') task.customer_id = id;
      else if (placeKey(card.name) === placeKey(task.loading_place ?? '') && task.loading_place_id === undefined) task.loading_place_id = id;
      else task.unloading_place_id = id;
    }
    return [task];
  });
  return { tasks, created };
}
