/**
 * The act and the invoice (issue 34 §2; docs/statements.md): one paper pair per customer per period, numbered per
 * company per year without gaps (the next number taken in the issuing transaction; a unique index settles a race,
 * retried). Issued, it is frozen: its lines, the trips it bills with their amounts, the VAT rate and both parties'
 * requisites are stored, so a later change to a trip, a price or a card never moves it. A correction is a new act
 * referring to the first (`corrects_id`), which is then «corrected»; a trip is billed on one live act at most.
 */
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import { fromKop } from '../../contract/money.ts';
import { PARTY_COLUMNS, vatIncludedKop, type Invoice, type InvoiceCreate, type InvoiceLine, type InvoiceListQuery, type InvoiceParty, type InvoiceState } from '../../contract/statements.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { assertStaffSeesCompany, isSuperAdmin, localToday } from '../tasks/scope.ts';
import type { AuthUser } from '../auth/guard.ts';
import { roundQuantity } from '../tasks/progress.ts';
import { buildStatement, customerOf, type BilledTrip } from './statement.ts';
import type { Selectable } from 'kysely';
import type { InvoicesTable } from '../db/schema-invoices.ts';

const dmy = (iso: string) => iso.split('-').reverse().join('.');

/** Whole days from `from` to `to` (YYYY-MM-DD). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

type BilledLine = InvoiceLine & { amount_kop: number };

/**
 * The act's lines: the trips grouped by cargo, route, unit and price (carriage), in the order they first appear;
 * then the billed waiting grouped by cargo, route, hourly price and free period (unit «час», hours).
 */
export function linesOf(trips: readonly BilledTrip[]): BilledLine[] {
  const by = new Map<string, BilledLine>();
  const add = (key: unknown[], fresh: () => BilledLine, quantity: number, kop: number) => {
    const k = JSON.stringify(key);
    const line = by.get(k) ?? fresh();
    line.trips += 1;
    line.quantity = roundQuantity(line.quantity + quantity);
    line.amount_kop += kop;
    line.amount = fromKop(line.amount_kop);
    by.set(k, line);
  };
  const route = (t: BilledTrip) => ({ cargo: t.cargo, loading_place: t.loading_place, unloading_place: t.unloading_place, trips: 0, quantity: 0, amount: 0, amount_kop: 0 });
  for (const t of trips) {
    add(['carriage', t.cargo, t.loading_place, t.unloading_place, t.unit, t.price], () => ({ ...route(t), kind: 'carriage', free_minutes: null, unit: t.unit, price: t.price ?? 0 }), t.quantity, t.amount_kop);
  }
  for (const t of trips) {
    const w = t.waiting;
    if (!w || t.waiting_kop === 0) continue;
    add(['waiting', t.cargo, t.loading_place, t.unloading_place, w.price, w.free_minutes], () => ({ ...route(t), kind: 'waiting', free_minutes: w.free_minutes, unit: 'час', price: w.price }), w.hours, t.waiting_kop);
  }
  return [...by.values()];
}

/** The party's requisites as frozen on the act. */
const party = (row: InvoiceParty): string => JSON.stringify(Object.fromEntries(PARTY_COLUMNS.map((c) => [c, row[c]])));

type InvoiceRow = Selectable<InvoicesTable> & { counterparty_name: string };

function selectInvoices(db: Db) {
  return db.kysely
    .selectFrom('invoices as i')
    .innerJoin('counterparties as c', 'c.id', 'i.counterparty_id')
    .selectAll('i')
    .select('c.name as counterparty_name');
}

async function toWire(db: Db, rows: readonly InvoiceRow[]): Promise<Invoice[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, corrections] = await Promise.all([
    db.kysely.selectFrom('invoice_lines').selectAll().where('invoice_id', 'in', ids).orderBy('invoice_id').orderBy('position').execute(),
    db.kysely.selectFrom('invoices').select(['id', 'corrects_id']).where('corrects_id', 'in', ids).execute(),
  ]);
  const today = localToday();
  return rows.map((r): Invoice => {
    const own = lines.filter((l) => l.invoice_id === r.id);
    return {
      id: r.id,
      company_id: r.company_id,
      counterparty_id: r.counterparty_id,
      counterparty_name: r.counterparty_name,
      number: r.number,
      year: r.year,
      issued_on: r.issued_on,
      from: r.period_from,
      to: r.period_to,
      state: r.state,
      paid_on: r.paid_on,
      corrects_id: r.corrects_id,
      corrected_by_id: corrections.find((c) => c.corrects_id === r.id)?.id ?? null,
      vat_rate: r.vat_rate,
      total: fromKop(Number(r.total_kop)),
      vat: fromKop(Number(r.vat_kop)),
      trips: own.filter((l) => l.kind === 'carriage').reduce((s, l) => s + l.trips, 0),
      age_days: r.state === 'issued' ? Math.max(0, daysBetween(r.issued_on, today)) : null,
      lines: own.map((l) => ({
        kind: l.kind,
        free_minutes: l.free_minutes,
        cargo: l.cargo,
        loading_place: l.loading_place,
        unloading_place: l.unloading_place,
        unit: l.unit,
        trips: l.trips,
        quantity: l.quantity,
        price: l.price,
        amount: fromKop(Number(l.amount_kop)),
      })),
      seller: JSON.parse(r.seller) as InvoiceParty,
      buyer: JSON.parse(r.buyer) as InvoiceParty,
    };
  });
}

/** An act the caller may see (another company's: 404). */
export async function loadInvoice(db: Db, user: AuthUser, id: number): Promise<Invoice> {
  const row = await selectInvoices(db).where('i.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Акт не найден');
  assertStaffSeesCompany(user, row.company_id, 'Акт не найден');
  return (await toWire(db, [row]))[0] as Invoice;
}

/** The acts issued to one customer of a company, newest first (the customer's link: docs/customer-link.md). */
export async function customerInvoices(db: Db, companyId: number, counterpartyId: number): Promise<Invoice[]> {
  const rows = await selectInvoices(db).where('i.company_id', '=', companyId).where('i.counterparty_id', '=', counterpartyId).orderBy('i.issued_on', 'desc').orderBy('i.id', 'desc').execute();
  return toWire(db, rows);
}

/** One act issued to this customer of this company; any other act — whatever its id — is 404. */
export async function customerInvoice(db: Db, companyId: number, counterpartyId: number, id: number): Promise<Invoice> {
  const row = await selectInvoices(db).where('i.id', '=', id).where('i.company_id', '=', companyId).where('i.counterparty_id', '=', counterpartyId).executeTakeFirst();
  if (!row) throw notFound('Акт не найден');
  return (await toWire(db, [row]))[0] as Invoice;
}

export async function listInvoices(db: Db, user: AuthUser, query: InvoiceListQuery): Promise<Invoice[]> {
  if (query.counterparty_id !== undefined) {
    const cp = await db.kysely.selectFrom('counterparties').select('company_id').where('id', '=', query.counterparty_id).executeTakeFirst();
    if (!cp) throw notFound('Контрагент не найден');
    assertStaffSeesCompany(user, cp.company_id, 'Контрагент не найден');
  }
  const rows = await selectInvoices(db)
    .$if(!isSuperAdmin(user), (q) => q.where('i.company_id', '=', user.company_id ?? -1))
    .$if(query.counterparty_id !== undefined, (q) => q.where('i.counterparty_id', '=', query.counterparty_id as number))
    .$if(query.state !== undefined, (q) => q.where('i.state', '=', query.state as InvoiceState))
    .orderBy('i.issued_on', 'desc')
    .orderBy('i.id', 'desc')
    .execute();
  return toWire(db, rows);
}

/** Issues the act and invoice of a customer's approved trips of the period not yet on a live act. */
export async function issueInvoice(db: Db, user: AuthUser, body: InvoiceCreate): Promise<Invoice> {
  const customer = await customerOf(db, user, body.counterparty_id);
  let corrected: InvoiceRow | undefined;
  if (body.corrects_id !== undefined) {
    corrected = await selectInvoices(db).where('i.id', '=', body.corrects_id).executeTakeFirst();
    if (!corrected || corrected.company_id !== customer.company_id) throw notFound('Исправляемый акт не найден');
    if (corrected.counterparty_id !== customer.id) throw badRequest('Исправляемый акт: он выставлен другому заказчику');
    if (corrected.state === 'corrected') throw conflict(`Акт № ${corrected.number} уже заменён исправленным`);
    if (body.from > corrected.period_from || body.to < corrected.period_to) {
      throw badRequest(`Период: исправленный акт должен охватывать период акта № ${corrected.number} (${dmy(corrected.period_from)}–${dmy(corrected.period_to)})`);
    }
  }
  const statement = await buildStatement(db, customer, body.from, body.to);
  const trips = statement.billed.filter((t) => t.invoice === null || t.invoice.id === corrected?.id);
  if (trips.length === 0) throw conflict(`Нет принятых рейсов заказчика «${customer.name}» за ${dmy(body.from)}–${dmy(body.to)}, которые ещё не вошли в акт`);
  const unpriced = trips.filter((t) => t.price === null);
  if (unpriced.length > 0) {
    const tasks = [...new Set(unpriced.map((t) => t.task_id))].slice(0, 10).map((id) => `№ ${id}`);
    throw conflict(`У рейсов без цены акт не выставить: укажите цену в задачах ${tasks.join(', ')}`);
  }
  const lines = linesOf(trips);
  const totalKop = trips.reduce((s, t) => s + t.amount_kop + t.waiting_kop, 0);
  const company = await db.kysely
    .selectFrom('companies')
    .select([...PARTY_COLUMNS, 'vat_rate'])
    .where('id', '=', customer.company_id)
    .executeTakeFirstOrThrow();
  const issuedOn = localToday();
  const year = Number(issuedOn.slice(0, 4));
  const reportIds = trips.map((t) => t.report_id);
  for (let attempt = 0; ; attempt++) {
    try {
      const id = await db.kysely.transaction().execute(async (trx) => {
        // The next number is read before the check below: an act committed after this read takes the same number,
        // so ours collides on the unique index and is retried — and the retry's check sees that act's trips. Read
        // after the check (PostgreSQL's read committed), an act committed in between would be missed by both.
        const last = await trx.selectFrom('invoices').select((eb) => eb.fn.max('number').as('n')).where('company_id', '=', customer.company_id).where('year', '=', year).executeTakeFirst();
        // A trip billed meanwhile by another act (two clicks at once): refused, nothing numbered.
        const taken = await trx
          .selectFrom('invoice_trips as it')
          .innerJoin('invoices as i', 'i.id', 'it.invoice_id')
          .select(['i.number'])
          .where('i.state', '<>', 'corrected')
          .where('it.report_id', 'in', reportIds)
          .$if(corrected !== undefined, (q) => q.where('i.id', '<>', corrected?.id as number))
          .executeTakeFirst();
        if (taken) throw conflict(`Рейсы периода уже вошли в акт № ${taken.number}; обновите список`);
        if (corrected) {
          const still = await trx.selectFrom('invoices').select('state').where('id', '=', corrected.id).executeTakeFirstOrThrow();
          if (still.state === 'corrected') throw conflict(`Акт № ${corrected.number} уже заменён исправленным`);
        }
        const now = nowIso();
        const row = await trx
          .insertInto('invoices')
          .values({
            company_id: customer.company_id,
            counterparty_id: customer.id,
            year,
            number: Number(last?.n ?? 0) + 1,
            issued_on: issuedOn,
            period_from: body.from,
            period_to: body.to,
            state: 'issued',
            paid_on: null,
            corrects_id: corrected?.id ?? null,
            vat_rate: company.vat_rate,
            total_kop: totalKop,
            vat_kop: vatIncludedKop(totalKop, company.vat_rate),
            seller: party(company),
            buyer: party(customer),
            created_by: user.id,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('invoice_lines')
          .values(
            lines.map((l, position) => ({
              invoice_id: row.id,
              position,
              cargo: l.cargo,
              loading_place: l.loading_place,
              unloading_place: l.unloading_place,
              unit: l.unit,
              trips: l.trips,
              quantity: l.quantity,
              price: l.price,
              amount_kop: l.amount_kop,
              kind: l.kind,
              free_minutes: l.free_minutes,
            })),
          )
          .execute();
        for (let i = 0; i < trips.length; i += 200) {
          await trx
            .insertInto('invoice_trips')
            .values(trips.slice(i, i + 200).map((t) => ({ invoice_id: row.id, report_id: t.report_id, quantity: t.quantity, amount_kop: t.amount_kop, waiting_min: t.waiting?.billed_min ?? 0, waiting_kop: t.waiting_kop })))
            .execute();
        }
        if (corrected) await trx.updateTable('invoices').set({ state: 'corrected', updated_at: now }).where('id', '=', corrected.id).execute();
        return row.id;
      });
      return loadInvoice(db, user, id);
    } catch (error) {
      // Two acts numbered at once: the loser takes the next number.
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/** Marks an act paid on a date (not before it was issued, not in the future). */
export async function markPaid(db: Db, user: AuthUser, id: number, date: string): Promise<Invoice> {
  const invoice = await loadInvoice(db, user, id);
  if (invoice.state === 'corrected') throw conflict(`Акт № ${invoice.number} заменён исправленным: отметьте оплату исправленного`);
  if (invoice.state === 'paid') throw conflict(`Счёт № ${invoice.number} уже отмечен оплаченным ${dmy(invoice.paid_on ?? '')}`);
  if (date < invoice.issued_on) throw badRequest(`Дата оплаты: раньше даты счёта (${dmy(invoice.issued_on)})`);
  if (date > localToday()) throw badRequest('Дата оплаты: в будущем');
  await db.kysely.updateTable('invoices').set({ state: 'paid', paid_on: date, updated_at: nowIso() }).where('id', '=', id).where('state', '=', 'issued').execute();
  return loadInvoice(db, user, id);
}
