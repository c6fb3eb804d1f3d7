/**
 * A task's register links (docs/registers.md): its customer, shipper and consignee, its loading and unloading
 * places. Checked where a task is created or changed (the form, templates, «Повторять», the import): each id must
 * be the company's, a counterparty must have the field's role, and a new link may not name an archived card (a
 * link the task already has stays). A linked place gives the task its text (the texts stay for existing readers);
 * a text without an id links the company's place of that name, if there is one. The shipper and the consignee,
 * when not given, default to the owner of the loading (unloading) place, else to the customer — when that one has
 * the role.
 */
import type { Kysely } from 'kysely';
import type { Database, TaskRow } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { COUNTERPARTY_ROLE_LABELS } from '../../contract/requisites.ts';
import { LINK_ROLE, placeKey, type TaskLinks } from '../../contract/registers.ts';
import { rolesOf } from './counterparties.ts';

type Q = Kysely<Database>;

export interface LinkInput extends TaskLinks {
  loading_place?: string | undefined;
  unloading_place?: string | undefined;
}

/** The task columns a change of links sets. */
export type LinkColumns = Partial<Pick<TaskRow, 'customer_id' | 'shipper_id' | 'consignee_id' | 'loading_place_id' | 'unloading_place_id' | 'loading_place' | 'unloading_place'>>;

type Current = Pick<TaskRow, 'customer_id' | 'shipper_id' | 'consignee_id' | 'loading_place_id' | 'unloading_place_id'> | null;

const PARTY_FIELDS = ['customer_id', 'shipper_id', 'consignee_id'] as const;
type PartyField = (typeof PARTY_FIELDS)[number];

const PLACE_SIDES = [
  { id: 'loading_place_id', text: 'loading_place', missing: 'loading_place: укажите место погрузки' },
  { id: 'unloading_place_id', text: 'unloading_place', missing: 'unloading_place: укажите место выгрузки' },
] as const;

/** Whether a change names any link or place text (only then are they resolved). */
export function touchesLinks(input: LinkInput): boolean {
  return [...PARTY_FIELDS, 'loading_place_id', 'unloading_place_id', 'loading_place', 'unloading_place'].some((f) => input[f as keyof LinkInput] !== undefined);
}

async function counterparty(trx: Q, id: number) {
  const row = await trx.selectFrom('counterparties').select(['id', 'company_id', 'name', 'roles', 'archived_at']).where('id', '=', id).executeTakeFirst();
  return row ? { ...row, roles: rolesOf(row.roles) } : undefined;
}

/**
 * The columns to set for `input` on a task of `companyId` (`current`: the task as it is; null for a new one).
 * Refusals are 400 naming the field.
 */
export async function resolveTaskLinks(trx: Q, companyId: number, input: LinkInput, current: Current): Promise<LinkColumns> {
  const out: LinkColumns = {};

  for (const field of PARTY_FIELDS) {
    const id = input[field];
    if (id === undefined) continue;
    if (id === null) {
      out[field] = null;
      continue;
    }
    const card = await counterparty(trx, id);
    if (!card || card.company_id !== companyId) throw badRequest(`${field}: контрагент не найден в компании`);
    const role = LINK_ROLE[field];
    if (!card.roles.includes(role)) throw badRequest(`${field}: «${card.name}» не отмечен как ${COUNTERPARTY_ROLE_LABELS[role].toLowerCase()}`);
    if (card.archived_at !== null && current?.[field] !== id) throw badRequest(`${field}: «${card.name}» в архиве`);
    out[field] = id;
  }

  const owners: Partial<Record<'loading_place_id' | 'unloading_place_id', number | null>> = {};
  for (const side of PLACE_SIDES) {
    const id = input[side.id];
    const typed = input[side.text];
    if (typeof id === 'number') {
      const place = await trx.selectFrom('places').select(['company_id', 'name', 'archived_at', 'counterparty_id']).where('id', '=', id).executeTakeFirst();
      if (!place || place.company_id !== companyId) throw badRequest(`${side.id}: место не найдено в компании`);
      if (place.archived_at !== null && current?.[side.id] !== id) throw badRequest(`${side.id}: место «${place.name}» в архиве`);
      out[side.id] = id;
      out[side.text] = place.name;
      owners[side.id] = place.counterparty_id;
      continue;
    }
    if (typed === undefined) {
      if (id === null) out[side.id] = null;
      else if (current === null) throw badRequest(side.missing);
      continue;
    }
    out[side.text] = typed;
    if (id === null) {
      out[side.id] = null;
      continue;
    }
    // A text alone: the place of that name — the one linked already, else the company's place in use.
    const key = placeKey(typed);
    const linked = current?.[side.id]
      ? await trx.selectFrom('places').select(['id', 'name', 'name_key', 'counterparty_id']).where('id', '=', current[side.id] as number).executeTakeFirst()
      : undefined;
    const place =
      linked?.name_key === key
        ? linked
        : await trx
            .selectFrom('places')
            .select(['id', 'name', 'name_key', 'counterparty_id'])
            .where('company_id', '=', companyId)
            .where('name_key', '=', key)
            .where('archived_at', 'is', null)
            .executeTakeFirst();
    out[side.id] = place?.id ?? null;
    if (place) {
      out[side.text] = place.name;
      owners[side.id] = place.counterparty_id;
    }
  }

  await defaultParty(trx, 'shipper_id', 'loading_place_id', input, current, out, owners);
  await defaultParty(trx, 'consignee_id', 'unloading_place_id', input, current, out, owners);
  return out;
}

/**
 * The shipper (consignee) not given: the loading (unloading) place's owner, else the customer, when that one has the
 * role and is in use. On a change, only where the task has none and the customer or the place changed now.
 */
async function defaultParty(
  trx: Q,
  field: Exclude<PartyField, 'customer_id'>,
  placeField: 'loading_place_id' | 'unloading_place_id',
  input: LinkInput,
  current: Current,
  out: LinkColumns,
  owners: Partial<Record<'loading_place_id' | 'unloading_place_id', number | null>>,
): Promise<void> {
  if (input[field] !== undefined) return;
  if (current !== null && (current[field] !== null || (input.customer_id === undefined && owners[placeField] === undefined))) return;
  const customer = out.customer_id !== undefined ? out.customer_id : (current?.customer_id ?? null);
  const role = LINK_ROLE[field];
  for (const candidate of [owners[placeField] ?? null, customer]) {
    if (candidate === null) continue;
    const card = await counterparty(trx, candidate);
    if (card && card.archived_at === null && card.roles.includes(role)) {
      out[field] = candidate;
      return;
    }
  }
}
