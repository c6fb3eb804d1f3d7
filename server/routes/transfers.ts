/**
 * Carrier transfers (docs/product.md §7): a company hands a task, or part of its quantity, to another carrier company.
 * pending → accepted (the receiver gets its own carrier task and assigns its own drivers) | declined (with a
 * reason). The sender edits or withdraws it only while pending; the sender then follows the carrier task
 * read-only. A company sees only transfers it sends or receives (anything else is 404); the super-admin sees
 * all and may act for either side. Rules in full: TRANSFERS.md beside this file; the calls are declared in
 * contract/calls/transfers.ts.
 */
import type { RouteModule } from '../context.ts';
import type { Transfer } from '../../contract/transfers.ts';
import { transferCalls } from '../../contract/calls/transfers.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { assertStaffSeesCompany, isSuperAdmin } from '../tasks/scope.ts';
import { carrierTaskView, listTransfers, loadTransfer } from '../transfers/store.ts';

const NOT_FOUND = 'Передача не найдена';
const STATE_WORDS: Record<string, string> = { accepted: 'уже принята', declined: 'уже отклонена' };

const number = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 3 });

function sees(user: AuthUser, t: Transfer): boolean {
  return isSuperAdmin(user) || user.company_id === t.from_company.id || user.company_id === t.to_company.id;
}

async function visible(db: Db, user: AuthUser, id: number): Promise<Transfer> {
  const t = await loadTransfer(db, user, id);
  if (!t || !sees(user, t)) throw notFound(NOT_FOUND);
  return t;
}

function assertPending(t: Transfer): void {
  if (t.status !== 'pending') throw conflict(`Передача ${STATE_WORDS[t.status] ?? t.status}: изменить её нельзя`);
}

function assertSender(user: AuthUser, t: Transfer): void {
  if (!isSuperAdmin(user) && user.company_id !== t.from_company.id) throw forbidden('Изменить или отменить передачу может только компания-отправитель');
}

function assertReceiver(user: AuthUser, t: Transfer): void {
  if (!isSuperAdmin(user) && user.company_id !== t.to_company.id) throw forbidden('Принять или отклонить передачу может только компания-получатель');
}

/** What of the task is not handed out yet (pending and accepted transfers count), leaving one transfer out. */
async function remaining(db: Db, taskId: number, planned: number, except = 0): Promise<number> {
  const row = await db.kysely
    .selectFrom('transfers')
    .select((eb) => eb.fn.sum<number | null>(eb.fn.coalesce('quantity', eb.val(planned))).as('handed'))
    .where('task_id', '=', taskId)
    .where('status', 'in', ['pending', 'accepted'])
    .where('id', '!=', except)
    .executeTakeFirst();
  return Math.round((planned - Number(row?.handed ?? 0)) * 1000) / 1000;
}

async function receiver(db: Db, toCompanyId: number, fromCompanyId: number): Promise<void> {
  const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', toCompanyId).executeTakeFirst();
  if (!company) throw badRequest('to_company_id: компания не найдена');
  if (company.id === fromCompanyId) throw badRequest('to_company_id: задачу нельзя передать своей же компании');
}

function checkQuantity(quantity: number, left: number, unit: string): void {
  if (left <= 0) throw conflict('Вся задача уже передана другим компаниям');
  if (quantity > left) throw badRequest(`quantity: больше, чем осталось передать (${number.format(left)} ${unit})`);
}

export const transferRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  registerArea(app, ctx, transferCalls, {
    'POST /transfers/': async ({ user, body: input }) => {
      const task = await db.kysely
        .selectFrom('tasks')
        .select(['id', 'company_id', 'status', 'planned_quantity', 'unit'])
        .where('id', '=', input.task_id)
        .executeTakeFirst();
      if (!task) throw notFound('Задача не найдена');
      assertStaffSeesCompany(user, task.company_id, 'Задача не найдена');
      if (task.status === 'completed' || task.status === 'cancelled') {
        throw conflict(`Задача ${task.status === 'completed' ? 'уже выполнена' : 'отменена'}: передать её нельзя`);
      }
      await receiver(db, input.to_company_id, task.company_id);
      const waiting = await db.kysely
        .selectFrom('transfers')
        .select('id')
        .where('task_id', '=', task.id)
        .where('to_company_id', '=', input.to_company_id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (waiting) throw conflict(`Передача этой задачи в эту компанию уже ждёт ответа (№${waiting.id}): измените её`);
      const left = await remaining(db, task.id, task.planned_quantity);
      const quantity = input.quantity ?? left;
      checkQuantity(quantity, left, task.unit);
      const { id } = await db.kysely
        .insertInto('transfers')
        .values({
          task_id: task.id,
          from_company_id: task.company_id,
          to_company_id: input.to_company_id,
          quantity,
          status: 'pending',
          comment: input.comment || null,
          created_by: user.id,
          created_at: nowIso(),
          decided_at: null,
          carrier_task_id: null,
          decline_reason: null,
          decided_by: null,
          updated_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return visible(db, user, id);
    },

    'GET /transfers/': async ({ user, query: q }) => {
      if (q.to_company_id !== undefined) {
        // Incoming transfers of a company: one's own, or any for the super-admin.
        const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', q.to_company_id).executeTakeFirst();
        if (!company) throw notFound('Компания не найдена');
        assertStaffSeesCompany(user, company.id, 'Компания не найдена');
        return listTransfers(db, user, { companyId: company.id, direction: 'incoming', status: q.status });
      }
      if (isSuperAdmin(user)) {
        return listTransfers(db, user, { ...(q.company_id ? { companyId: q.company_id, direction: q.direction } : {}), status: q.status });
      }
      return listTransfers(db, user, { companyId: user.company_id ?? -1, direction: q.direction, status: q.status });
    },

    'PUT /transfers/:id': async ({ user, params, body: change }) => {
      const t = await visible(db, user, params.id);
      assertSender(user, t);
      assertPending(t);
      if (change.to_company_id !== undefined) await receiver(db, change.to_company_id, t.from_company.id);
      if (change.quantity !== undefined) checkQuantity(change.quantity, await remaining(db, t.task.id, t.task.planned_quantity, t.id), t.task.unit);
      // Conditional on still pending: a receiver's answer in between wins, and the sender is told.
      const updated = await db.kysely
        .updateTable('transfers')
        .set({
          ...(change.to_company_id !== undefined ? { to_company_id: change.to_company_id } : {}),
          ...(change.quantity !== undefined ? { quantity: change.quantity } : {}),
          ...(change.comment !== undefined ? { comment: change.comment || null } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', t.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) assertPending(await visible(db, user, t.id));
      return visible(db, user, t.id);
    },

    'DELETE /transfers/:id': async ({ user, params }) => {
      const t = await visible(db, user, params.id);
      assertSender(user, t);
      assertPending(t);
      const removed = await db.kysely.deleteFrom('transfers').where('id', '=', t.id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) assertPending(await visible(db, user, t.id));
      return null;
    },

    'POST /transfers/:id/accept': async ({ user, params }) => {
      const t = await visible(db, user, params.id);
      assertReceiver(user, t);
      assertPending(t);
      await db.kysely.transaction().execute(async (trx) => {
        const now = nowIso();
        // Claim first: of two accepts (or an accept and a withdrawal) racing, one wins.
        const claimed = await trx
          .updateTable('transfers')
          .set({ status: 'accepted', decided_at: now, decided_by: user.id })
          .where('id', '=', t.id)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) throw conflict('Передачу уже приняли, отклонили или отменили: обновите список');
        const source = await trx.selectFrom('tasks').selectAll().where('id', '=', t.task.id).executeTakeFirstOrThrow();
        const note = `Передано компанией «${t.from_company.name}» (задача №${source.id}, передача №${t.id})`;
        const { id: carrierId } = await trx
          .insertInto('tasks')
          .values({
            company_id: t.to_company.id,
            created_by: user.id,
            date: source.date,
            cargo: source.cargo,
            loading_place: source.loading_place,
            unloading_place: source.unloading_place,
            planned_quantity: t.quantity,
            unit: source.unit,
            status: 'open',
            rate: source.rate,
            comment: [note, t.comment].filter(Boolean).join('. '),
            max_drivers: source.max_drivers,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('transfers').set({ carrier_task_id: carrierId }).where('id', '=', t.id).execute();
      });
      return visible(db, user, t.id);
    },

    'POST /transfers/:id/decline': async ({ user, params, body: { reason } }) => {
      const t = await visible(db, user, params.id);
      assertReceiver(user, t);
      assertPending(t);
      const done = await db.kysely
        .updateTable('transfers')
        .set({ status: 'declined', decline_reason: reason, decided_at: nowIso(), decided_by: user.id })
        .where('id', '=', t.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) throw conflict('Передачу уже приняли, отклонили или отменили: обновите список');
      return visible(db, user, t.id);
    },

    /** :id is the transfer's id: both sides read the carrier task through the transfer that links them. */
    'GET /transfers/carrier-task/:id': async ({ user, params }) => carrierTaskView(db, await visible(db, user, params.id)),
  });
};
