/**
 * Announcements (docs/product.md §7). Staff post to their company (the super-admin to one company or to all); everyone
 * reads what is addressed to their company or to all, with how many are unread. An announcement may ask
 * drivers to respond: one response per driver, changed while pending, then confirmed or declined by the staff
 * of the driver's company. Another company's announcement or response is 404. Rules in full:
 * server/routes/ANNOUNCEMENTS.md.
 *
 * Who hears of a change: whom the announcement is for; of a response, the driver's company's staff (and the
 * announcement's), of a decision, the driver.
 */
import { answer, area, DELETE, GET, POST } from '../call.ts';
import { ALL_ROLES, DRIVER_ONLY, STAFF } from '../roles.ts';
import {
  announcementCreateSchema,
  announcementListQuerySchema,
  responseConfirmQuerySchema,
  responseCreateSchema,
  type Announcement,
  type AnnouncementList,
  type DecidedResponse,
  type MyResponse,
  type PendingResponse,
} from '../announcements.ts';

export const announcementCalls = area(
  /** Newest first, at most 200, with the caller's unread count; `company_id` narrows the super-admin's list. */
  GET('/announcements/', { roles: ALL_ROLES, query: announcementListQuerySchema, answer: answer<AnnouncementList>() }),
  /** Staff to their own company; the super-admin to a company or (null or nothing) to all. Read by its author. */
  POST('/announcements/', { roles: STAFF, body: announcementCreateSchema, status: 201, answer: answer<Announcement>(), audience: ['announcement:answer.id'] }),
  /** Its responses go with it; an all-company one only by the super-admin (its audience is read before the write). */
  DELETE('/announcements/:id', { roles: STAFF, status: 204, answer: answer<null>(), audience: ['announcement:param.id'] }),
  /** Marks it read for the caller (idempotent): only the caller's own count changes. */
  POST('/announcements/:id/read', { roles: ALL_ROLES, status: 204, answer: answer<null>(), audience: ['caller-only'] }),
  /** A driver's response, where one is asked: 201 the first time, 200 when a pending one is replaced. */
  POST('/announcements/:id/responses', {
    roles: DRIVER_ONLY,
    body: responseCreateSchema,
    status: 201,
    answer: answer<MyResponse>(),
    audience: ['caller', 'announcement-staff:param.id'],
  }),
  /** Pending responses of the caller's company's drivers (all for the super-admin), oldest first. */
  GET('/announcements/responses/pending', { roles: STAFF, answer: answer<PendingResponse[]>() }),
  /** Staff of the driver's company (or the super-admin) approve or, with `approve=false`, decline a pending response. */
  POST('/announcements/responses/:id/confirm', {
    roles: STAFF,
    query: responseConfirmQuerySchema,
    answer: answer<DecidedResponse>(),
    audience: ['caller', 'user:answer.user_id'],
  }),
);
