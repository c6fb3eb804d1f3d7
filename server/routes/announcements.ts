/**
 * Announcements (docs/product.md §7). Staff post to their company (the super-admin to one company or to all); everyone
 * reads what is addressed to their company or to all, and the list says how many are unread. An announcement
 * may ask drivers to respond: one response per driver, editable while pending, then confirmed or declined by
 * the staff of the driver's company. Another company's announcement or response is 404. Rules in full:
 * ANNOUNCEMENTS.md beside this file (POST /announcements/{id}/read is our addition, for the unread count); the
 * calls are declared in contract/calls/announcements.ts.
 */
import type { RouteModule } from '../context.ts';
import { RESPONSE_STATUSES, type Announcement, type AnnouncementList, type ResponseStatus } from '../../contract/announcements.ts';
import { announcementCalls } from '../../contract/calls/announcements.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { isDriver, isSuperAdmin } from '../tasks/scope.ts';

const NOT_FOUND = 'Объявление не найдено';
const ALL_COMPANIES = 'Все компании';

interface Row {
  id: number;
  company_id: number | null;
  title: string;
  body: string;
  created_at: string;
  requires_response: number;
}

/** Addressed to the user's company or to every company; the super-admin reads all. */
function visibleTo(user: AuthUser, row: { company_id: number | null }): boolean {
  return isSuperAdmin(user) || row.company_id === null || row.company_id === user.company_id;
}

async function visibleAnnouncement(db: Db, user: AuthUser, id: number): Promise<Row> {
  const row = await db.kysely
    .selectFrom('announcements')
    .select(['id', 'company_id', 'title', 'body', 'created_at', 'requires_response'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || !visibleTo(user, row)) throw notFound(NOT_FOUND);
  return row;
}

/** A stored response status (the column is text, written only here: pending, approved or declined). */
function responseStatus(stored: string): ResponseStatus {
  const status = RESPONSE_STATUSES.find((s) => s === stored);
  if (!status) throw new Error(`announcement response status ${stored}`);
  return status;
}

async function markRead(db: Db, announcementId: number, userId: number): Promise<void> {
  await db.kysely
    .insertInto('announcement_reads')
    .values({ announcement_id: announcementId, user_id: userId, read_at: nowIso() })
    .onConflict((oc) => oc.columns(['announcement_id', 'user_id']).doNothing())
    .execute();
}

/** What the caller may read (newest first), or just announcement `id` of it (the answer to a POST). */
async function listFor(db: Db, user: AuthUser, only: { companyFilter?: number | undefined; id?: number } = {}): Promise<AnnouncementList> {
  const { companyFilter } = only;
  let query = db.kysely
    .selectFrom('announcements as a')
    .leftJoin('users as u', 'u.id', 'a.author_id')
    .leftJoin('companies as c', 'c.id', 'a.company_id')
    .select(['a.id', 'a.title', 'a.body', 'a.created_at', 'a.company_id', 'a.requires_response', 'u.name as author_name', 'c.name as company_name']);
  if (!isSuperAdmin(user)) {
    query = query.where((eb) => eb.or([eb('a.company_id', 'is', null), eb('a.company_id', '=', user.company_id ?? -1)]));
  } else if (companyFilter !== undefined) {
    query = query.where((eb) => eb.or([eb('a.company_id', 'is', null), eb('a.company_id', '=', companyFilter)]));
  }
  if (only.id !== undefined) query = query.where('a.id', '=', only.id);
  const rows = await query.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(200).execute();
  const ids = rows.map((r) => r.id);
  const none = [0];
  const reads = await db.kysely
    .selectFrom('announcement_reads')
    .select('announcement_id')
    .where('user_id', '=', user.id)
    .where('announcement_id', 'in', ids.length ? ids : none)
    .execute();
  const read = new Set(reads.map((r) => r.announcement_id));
  const mine = await db.kysely
    .selectFrom('announcement_responses')
    .select(['id', 'announcement_id', 'text', 'status', 'created_at', 'decided_at'])
    .where('user_id', '=', user.id)
    .where('announcement_id', 'in', ids.length ? ids : none)
    .execute();
  // Staff see how responses stand, counting only responders they may decide on (their company's).
  const counts = isDriver(user)
    ? []
    : await db.kysely
        .selectFrom('announcement_responses as r')
        .innerJoin('users as ru', 'ru.id', 'r.user_id')
        .select(['r.announcement_id', 'r.status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('r.announcement_id', 'in', ids.length ? ids : none)
        .$if(!isSuperAdmin(user), (qb) => qb.where('ru.company_id', '=', user.company_id ?? -1))
        .groupBy(['r.announcement_id', 'r.status'])
        .execute();
  const items: Announcement[] = rows.map((r) => {
    const response = mine.find((m) => m.announcement_id === r.id);
    const tally = { pending: 0, approved: 0, declined: 0 };
    for (const c of counts) if (c.announcement_id === r.id && c.status in tally) tally[c.status] = Number(c.n);
    return {
      id: r.id,
      title: r.title,
      body: r.body,
      created_at: r.created_at,
      author_name: r.author_name,
      company_id: r.company_id,
      company_name: r.company_id === null ? ALL_COMPANIES : (r.company_name ?? ALL_COMPANIES),
      requires_response: r.requires_response === 1,
      is_read: read.has(r.id),
      my_response: response
        ? { id: response.id, text: response.text, status: response.status, created_at: response.created_at, decided_at: response.decided_at }
        : null,
      responses: isDriver(user) ? null : tally,
    };
  });
  return { items, unread: items.filter((i) => !i.is_read).length };
}

export const announcementRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  registerArea(app, ctx, announcementCalls, {
    'GET /announcements/': ({ user, query }) => listFor(db, user, { companyFilter: query.company_id }),

    'POST /announcements/': async ({ user, body: input }) => {
      let companyId: number | null;
      if (isSuperAdmin(user)) {
        companyId = input.company_id ?? null;
        if (companyId !== null && !(await db.kysely.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst())) {
          throw badRequest('company_id: компания не найдена');
        }
      } else {
        if (input.company_id === null || (input.company_id !== undefined && input.company_id !== user.company_id)) {
          throw forbidden('Публиковать можно только для своей компании');
        }
        companyId = user.company_id;
      }
      const { id } = await db.kysely
        .insertInto('announcements')
        .values({ company_id: companyId, author_id: user.id, title: input.title, body: input.body, requires_response: input.requires_response ? 1 : 0, created_at: nowIso() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await markRead(db, id, user.id);
      const [created] = (await listFor(db, user, { id })).items;
      if (!created) throw notFound(NOT_FOUND);
      return created;
    },

    'DELETE /announcements/:id': async ({ user, params }) => {
      const row = await visibleAnnouncement(db, user, params.id);
      if (row.company_id === null && !isSuperAdmin(user)) throw forbidden('Объявление для всех компаний удаляет суперадминистратор');
      await db.kysely.deleteFrom('announcements').where('id', '=', row.id).execute();
      return null;
    },

    'POST /announcements/:id/read': async ({ user, params }) => {
      const row = await visibleAnnouncement(db, user, params.id);
      await markRead(db, row.id, user.id);
      return null;
    },

    'POST /announcements/:id/responses': async ({ user, params, body: { text }, setStatus }) => {
      const row = await visibleAnnouncement(db, user, params.id);
      if (row.requires_response !== 1) throw conflict('Это объявление не требует ответа');
      await markRead(db, row.id, user.id);
      const earlier = await db.kysely
        .selectFrom('announcement_responses')
        .select(['id', 'status'])
        .where('announcement_id', '=', row.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (earlier && earlier.status !== 'pending') throw conflict('Ваш ответ уже рассмотрен: изменить его нельзя');
      const now = nowIso();
      if (earlier) {
        await db.kysely.updateTable('announcement_responses').set({ text: text || null, created_at: now }).where('id', '=', earlier.id).where('status', '=', 'pending').execute();
        setStatus(200);
      } else {
        await db.kysely
          .insertInto('announcement_responses')
          .values({ announcement_id: row.id, user_id: user.id, text: text || null, status: 'pending', created_at: now, decided_at: null, decided_by: null })
          .execute();
      }
      const response = await db.kysely
        .selectFrom('announcement_responses')
        .select(['id', 'text', 'status', 'created_at', 'decided_at'])
        .where('announcement_id', '=', row.id)
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      return { ...response, status: responseStatus(response.status) };
    },

    'GET /announcements/responses/pending': ({ user }) =>
      db.kysely
        .selectFrom('announcement_responses as r')
        .innerJoin('announcements as a', 'a.id', 'r.announcement_id')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .leftJoin('companies as c', 'c.id', 'u.company_id')
        .select(['r.id', 'r.announcement_id', 'a.title as announcement_title', 'r.user_id', 'u.name as user_name', 'c.name as company_name', 'r.text', 'r.created_at'])
        .where('r.status', '=', 'pending')
        .$if(!isSuperAdmin(user), (qb) => qb.where('u.company_id', '=', user.company_id ?? -1))
        .orderBy('r.created_at')
        .orderBy('r.id')
        .limit(500)
        .execute(),

    'POST /announcements/responses/:id/confirm': async ({ user, params, query: { approve } }) => {
      const response = await db.kysely
        .selectFrom('announcement_responses as r')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .select(['r.id', 'r.status', 'u.company_id'])
        .where('r.id', '=', params.id)
        .executeTakeFirst();
      if (!response || (!isSuperAdmin(user) && response.company_id !== user.company_id)) throw notFound('Ответ не найден');
      const decided = await db.kysely
        .updateTable('announcement_responses')
        .set({ status: approve ? 'approved' : 'declined', decided_at: nowIso(), decided_by: user.id })
        .where('id', '=', response.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(decided.numUpdatedRows) === 0) throw conflict('Ответ уже рассмотрен');
      const row = await db.kysely
        .selectFrom('announcement_responses')
        .select(['id', 'announcement_id', 'user_id', 'text', 'status', 'created_at', 'decided_at'])
        .where('id', '=', response.id)
        .executeTakeFirstOrThrow();
      return { ...row, status: responseStatus(row.status) };
    },
  });
};
