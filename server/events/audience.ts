/**
 * Who may hear of a change. A driver hears of their own tasks (and of open tasks of their
 * company, which they may take), their reports' verdicts and announcements; staff hear of their company's
 * tasks, reports, transfers, people and requests; a super-admin hears everything. Only an API path travels
 * (what to refetch), never the data: the refetch goes through the usual access checks.
 *
 * `audienceOf` maps a successful write (its route, params, body and answer) to that audience, from its declaration's
 * `audience` refs (contract/calls), read from the database before the write (what it was about: a deleted task's
 * drivers) and after it (what it made).
 */
import type { Db } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { AudienceKind, AudienceRef, CallDecl } from '../../contract/call.ts';
import { CALLS } from '../../contract/calls/index.ts';
import { MAX_ID } from '../errors.ts';

export interface Audience {
  /** Every signed-in user (an announcement to all companies). */
  everyone?: boolean;
  /** Managers and admins of these companies. */
  staffOf: number[];
  /** Every driver of these companies. */
  driversOf: number[];
  /** These users, whatever their role. */
  users: number[];
}

export function hears(user: Pick<AuthUser, 'id' | 'role' | 'company_id'>, audience: Audience): boolean {
  if (user.role === 'super-admin' || audience.everyone || audience.users.includes(user.id)) return true;
  if (user.company_id === null) return false;
  return user.role === 'driver' ? audience.driversOf.includes(user.company_id) : audience.staffOf.includes(user.company_id);
}

const none = (): Audience => ({ staffOf: [], driversOf: [], users: [] });

function merge(...parts: (Audience | null)[]): Audience {
  const out = none();
  for (const a of parts) {
    if (!a) continue;
    if (a.everyone) out.everyone = true;
    out.staffOf.push(...a.staffOf);
    out.driversOf.push(...a.driversOf);
    out.users.push(...a.users);
  }
  const unique = (xs: number[]) => [...new Set(xs.filter((x) => Number.isInteger(x)))];
  return { ...(out.everyone ? { everyone: true } : {}), staffOf: unique(out.staffOf), driversOf: unique(out.driversOf), users: unique(out.users) };
}

/** A positive integer id, from a number or a digits-only string (a path param); else null. */
export const num = (value: unknown): number | null => {
  const n = typeof value === 'string' && /^[1-9][0-9]*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= MAX_ID ? n : null;
};

async function taskAudience(db: Db, taskId: number | null): Promise<Audience | null> {
  if (taskId === null) return null;
  const task = await db.kysely.selectFrom('tasks').select(['company_id', 'status']).where('id', '=', taskId).executeTakeFirst();
  if (!task) return null;
  const drivers = await db.kysely.selectFrom('task_drivers').select('driver_id').where('task_id', '=', taskId).execute();
  const transfers = await db.kysely
    .selectFrom('transfers')
    .select(['from_company_id', 'to_company_id'])
    .where((eb) => eb.or([eb('task_id', '=', taskId), eb('carrier_task_id', '=', taskId)]))
    .execute();
  return {
    staffOf: [task.company_id, ...transfers.flatMap((t) => [t.from_company_id, t.to_company_id])],
    // An open task is on every driver's list of available tasks.
    driversOf: task.status === 'open' ? [task.company_id] : [],
    users: drivers.map((d) => d.driver_id),
  };
}

async function reportTask(db: Db, by: { reportId?: number | null; associationId?: number | null }): Promise<number | null> {
  let associationId = by.associationId ?? null;
  if (by.reportId) {
    const report = await db.kysely.selectFrom('reports').select('association_id').where('id', '=', by.reportId).executeTakeFirst();
    associationId = report?.association_id ?? null;
  }
  if (associationId === null) return null;
  const association = await db.kysely.selectFrom('task_drivers').select('task_id').where('id', '=', associationId).executeTakeFirst();
  return association?.task_id ?? null;
}

async function userAudience(db: Db, userId: number | null): Promise<Audience | null> {
  if (userId === null) return null;
  const user = await db.kysely.selectFrom('users').select('company_id').where('id', '=', userId).executeTakeFirst();
  return { staffOf: user?.company_id ? [user.company_id] : [], driversOf: [], users: [userId] };
}

async function transferAudience(db: Db, transferId: number | null): Promise<Audience | null> {
  if (transferId === null) return null;
  const t = await db.kysely
    .selectFrom('transfers')
    .select(['task_id', 'carrier_task_id', 'from_company_id', 'to_company_id'])
    .where('id', '=', transferId)
    .executeTakeFirst();
  if (!t) return null;
  return merge(
    { staffOf: [t.from_company_id, t.to_company_id], driversOf: [], users: [] },
    await taskAudience(db, t.task_id),
    await taskAudience(db, t.carrier_task_id),
  );
}

async function announcementAudience(db: Db, announcementId: number | null): Promise<Audience | null> {
  if (announcementId === null) return null;
  const a = await db.kysely.selectFrom('announcements').select('company_id').where('id', '=', announcementId).executeTakeFirst();
  if (!a) return null;
  return a.company_id === null ? { everyone: true, ...none() } : { staffOf: [a.company_id], driversOf: [a.company_id], users: [] };
}

export interface WriteFacts {
  method: string;
  /** The route as registered, without the /api prefix: '/tasks/:id/'. */
  route: string;
  params: Record<string, string>;
  body: unknown;
  caller: AuthUser | null;
  /** The answer's JSON, when it had one. */
  answer: unknown;
}

export const field = (value: unknown, key: string): unknown => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);
const callerCompany = (f: WriteFacts): Audience => ({ staffOf: f.caller?.company_id ? [f.caller.company_id] : [], driversOf: [], users: f.caller ? [f.caller.id] : [] });

/** Each audience kind of the route table (contract/call.ts `AudienceKind`), from one id. */
const KINDS: Record<AudienceKind, (db: Db, id: number | null) => Promise<Audience | null>> = {
  task: taskAudience,
  'report-task': async (db, id) => taskAudience(db, await reportTask(db, { reportId: id })),
  'association-task': async (db, id) => taskAudience(db, await reportTask(db, { associationId: id })),
  user: userAudience,
  'company-staff': async (_db, id) => (id === null ? null : { ...none(), staffOf: [id] }),
  company: async (_db, id) => (id === null ? null : { ...none(), staffOf: [id], driversOf: [id] }),
  transfer: transferAudience,
  announcement: announcementAudience,
  'announcement-staff': async (db, id) => {
    if (id === null) return null;
    const a = await db.kysely.selectFrom('announcements').select('company_id').where('id', '=', id).executeTakeFirst();
    return a?.company_id ? { ...none(), staffOf: [a.company_id] } : null;
  },
  'rate-band': async (db, id) => {
    if (id === null) return null;
    const r = await db.kysely.selectFrom('progressive_rates').select('company_id').where('id', '=', id).executeTakeFirst();
    return r ? { ...none(), staffOf: [r.company_id] } : null;
  },
};

async function resolveRef(db: Db, facts: WriteFacts, ref: AudienceRef): Promise<Audience | null> {
  if (ref === 'caller') return callerCompany(facts);
  if (ref === 'caller-only') return { ...none(), users: facts.caller ? [facts.caller.id] : [] };
  const [kind, where] = ref.split(':') as [AudienceKind, string];
  const [source, name] = where.split('.') as ['param' | 'body' | 'answer', string];
  const raw = source === 'param' ? facts.params[name] : field(source === 'body' ? facts.body : facts.answer, name);
  return KINDS[kind](db, num(raw));
}

/** The declared call of a registered route, when it names an audience. */
function declared(method: string, route: string): readonly AudienceRef[] | undefined {
  return (CALLS as Record<string, CallDecl>)[`${method} ${route}`]?.audience;
}

/** Whether a write route is told to the feed at all (auth, client errors and export jobs are not). */
export function tracked(method: string, route: string): boolean {
  return declared(method, route) !== undefined;
}

export async function audienceOf(db: Db, facts: WriteFacts): Promise<Audience | null> {
  const refs = declared(facts.method, facts.route);
  if (!refs) return null;
  return merge(...(await Promise.all(refs.map((ref) => resolveRef(db, facts, ref)))));
}

export { merge as mergeAudiences };
