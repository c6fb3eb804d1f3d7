/**
 * When a write sends push notifications, and to whom: a driver when a task is assigned to them
 * (created with them, assigned, or moved to them), everyone an announcement is for (not its author), and the
 * receiving company's staff when a transfer arrives. Called after a successful write, with what the change
 * feed read before it (audience.ts): "assigned" means the driver was not on the task before.
 */
import type { Db } from '../db/connect.ts';
import { field, num, type Audience, type WriteFacts } from '../events/audience.ts';
import type { PushMessage, Pusher } from './push.ts';
import type { CallKey } from '../../contract/calls/index.ts';


/** YYYY-MM-DD → DD.MM.YYYY, as every date the user reads. */
function ruDate(date: string): string {
  const [y, m, d] = date.split('-');
  return y && m && d ? `${d}.${m}.${y}` : date;
}

async function taskAssigned(db: Db, taskId: number | null): Promise<PushMessage | null> {
  if (taskId === null) return null;
  const task = await db.kysely.selectFrom('tasks').select(['cargo', 'date']).where('id', '=', taskId).executeTakeFirst();
  return task ? { body: `Вам назначена задача: ${task.cargo}, ${ruDate(task.date)}`, url: '/current-tasks' } : null;
}

async function driversOf(db: Db, taskId: number | null): Promise<number[]> {
  if (taskId === null) return [];
  return (await db.kysely.selectFrom('task_drivers').select('driver_id').where('task_id', '=', taskId).execute()).map((r) => r.driver_id);
}

export async function pushAfterWrite(db: Db, pusher: Pusher, facts: WriteFacts, before: Audience | null): Promise<void> {
  const key = `${facts.method} ${facts.route}`;
  const param = (name: string) => num(facts.params[name]);
  const callerId = facts.caller?.id ?? null;

  if (key === 'POST /tasks/') {
    const taskId = num(field(facts.answer, 'id'));
    const message = await taskAssigned(db, taskId);
    if (message) await pusher.toUsers(await driversOf(db, taskId), message);
    return;
  }
  if (key === 'PUT /tasks/:id/drivers/:driverId/' || key === 'PUT /tasks/:id/drivers/:driverId/move/') {
    const driverId = key.endsWith('move/') ? num(field(facts.body, 'to_driver_id')) : param('driverId');
    if (driverId === null || before?.users.includes(driverId)) return;
    const message = await taskAssigned(db, param('id'));
    if (message) await pusher.toUsers([driverId], message);
    return;
  }
  if (key === 'POST /announcements/') {
    const id = num(field(facts.answer, 'id'));
    if (id === null) return;
    const a = await db.kysely.selectFrom('announcements').select(['title', 'company_id']).where('id', '=', id).executeTakeFirst();
    if (!a) return;
    let users = db.kysely.selectFrom('users').select('id').where('is_active', '=', 1);
    if (a.company_id !== null) users = users.where('company_id', '=', a.company_id);
    const ids = (await users.execute()).map((u) => u.id).filter((u) => u !== callerId);
    await pusher.toUsers(ids, { body: `Новое объявление: ${a.title}`, url: '/announcements' });
    return;
  }
  if (key === 'POST /transfers/') {
    const id = num(field(facts.answer, 'id'));
    if (id === null) return;
    const t = await db.kysely
      .selectFrom('transfers')
      .innerJoin('tasks', 'tasks.id', 'transfers.task_id')
      .innerJoin('companies', 'companies.id', 'transfers.from_company_id')
      .select(['transfers.to_company_id', 'tasks.cargo', 'companies.name'])
      .where('transfers.id', '=', id)
      .executeTakeFirst();
    if (!t) return;
    const staff = await db.kysely
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', t.to_company_id)
      .where('role', 'in', ['manager', 'admin'])
      .where('is_active', '=', 1)
      .execute();
    await pusher.toUsers(
      staff.map((u) => u.id),
      { body: `Входящая передача от «${t.name}»: ${t.cargo}`, url: '/carrier-transfers' },
    );
  }
  if (key === 'POST /reports/:id/review' satisfies CallKey && field(facts.body, 'action') === 'dispute') {
    const r = await db.kysely
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .select(['r.driver_id', 'r.review_comment', 't.cargo', 't.date'])
      .where('r.id', '=', param('id') ?? 0)
      .executeTakeFirst();
    if (!r) return;
    const reason = r.review_comment ? `: ${r.review_comment}` : '';
    await pusher.toUsers([r.driver_id], { body: `Отчёт оспорен (${r.cargo}, ${ruDate(r.date)})${reason}`, url: '/current-tasks' });
  }
}
