/**
 * /users on the route table: the signed-in user's profile, vehicles and alert settings; the public sign-up under
 * the spec's other name (`POST /users/` makes a pending registration request, exactly as POST
 * /registration-requests/ does); the accounts a super-admin manages (/users/manage, /managers/manage) and the
 * drivers staff manage (/drivers/manage). Alerts: which events a staff user is told of, and whether with a sound and
 * a system notification (contract/alerts.ts, docs/alerts.md).
 *
 * The engine makes `GET /users/me/` (the profile it keeps) and `POST /users/` (sign-up) itself (worker/auth.ts);
 * the table types and registers them. A write about a user is told to the caller's company and to that user
 * (their company's staff too); it refetches what shows people besides the users themselves: tasks, the
 * registration requests, the board and pay (the names on /payroll and the statistics).
 */
import { z } from 'zod';
import { MAX_ID, wireId, wireInt } from '../fields.ts';
import { answer, area, DELETE, GET, PAY, POST, PUT } from '../call.ts';
import { ALL_ROLES, ROLES, STAFF, SUPER_ONLY } from '../roles.ts';
import type { AlertSettings } from '../alerts.ts';
import { alertSettingsSchema } from '../alert-settings.ts';
import {
  driverCreateSchema,
  driverUpdateSchema,
  profileUpdateSchema,
  registrationSchema,
  staffCreateSchema,
  userAdminUpdateSchema,
} from '../payloads.ts';
import type { DriverListItem, DriverRemoval, RegistrationReceipt, Transport, UserListPage, UserWire } from '../entities.ts';
import { SIGN_IN_BODY_LIMIT } from './registration.ts';

export const USER_PAGE_MAX = 200;
const KNOWN_ROLES: readonly string[] = ROLES;

/** GET /users/ (super-admin): search, filters and a page of every user. */
export const userListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  // One role or several, comma-separated: /managers/manage lists managers and admins together.
  role: z
    .string()
    .superRefine((text, ctx) => {
      text
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean)
        .forEach((role, index) => {
          if (!KNOWN_ROLES.includes(role)) ctx.addIssue({ code: 'custom', message: 'неизвестная роль', path: [index] });
        });
    })
    .optional(),
  company_id: wireId('ожидается номер компании').optional(),
  active: z.enum(['true', 'false', 'all']).default('all'),
  ordering: z.enum(['name', '-name', 'created_at', '-created_at', 'email', '-email']).default('name'),
  limit: wireInt(1, USER_PAGE_MAX).default(50),
  offset: wireInt(0, MAX_ID).default(0),
});

/** The roles a `role` filter names (validated by userListQuerySchema). */
export function rolesOfFilter(role: string | undefined): string[] {
  return (role ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
}

/** GET /users/drivers/: a super-admin narrows to one company; deactivated drivers only when asked. */
export const driverListQuerySchema = z.object({
  company_id: wireId('ожидается номер компании').optional(),
  include_inactive: z.enum(['true', 'false', '1', '0']).optional(),
});

/**
 * What shows people besides the users themselves: tasks, the registration requests, the board, and pay — /payroll
 * and the statistics name drivers and managers, list a company's active managers and read a moved driver's closed
 * months by company (a rename, a move between companies or a deactivation changes them).
 */
const PEOPLE = ['tasks', 'registration-requests', 'dispatch', ...PAY] as const;

/** The caller's own account (server/routes/users.ts), and the sign-up under the spec's other name. */
export const profileCalls = area(
  /** The public sign-up; the receipt says who will review it. */
  POST('/users/', {
    roles: null,
    body: registrationSchema,
    bodyLimit: SIGN_IN_BODY_LIMIT,
    status: 201,
    answer: answer<RegistrationReceipt>(),
    invalidates: PEOPLE,
    // A sign-up is a request for the company's staff to decide, as POST /registration-requests/ (its answer's id
    // is a request's, not a user's).
    audience: ['company-staff:body.company_id'],
  }),
  GET('/users/me/', { roles: ALL_ROLES, answer: answer<UserWire>() }),
  PUT('/users/me/', { roles: ALL_ROLES, body: profileUpdateSchema, answer: answer<UserWire>(), invalidates: PEOPLE, audience: ['caller'] }),
  /** The caller's vehicles, the current one first. */
  GET('/users/me/transports/', { roles: ALL_ROLES, answer: answer<Transport[]>() }),
  /** Makes one of the caller's vehicles the current one; another user's answers 404 like a missing one. */
  PUT('/users/me/transport/:id/', { roles: ALL_ROLES, answer: answer<Transport>(), invalidates: PEOPLE, audience: ['caller'] }),
);

/** The caller's alert settings (server/routes/user-settings.ts). */
export const userSettingsCalls = area(
  GET('/users/me/alerts', { roles: STAFF, answer: answer<AlertSettings>() }),
  PUT('/users/me/alerts', { roles: STAFF, body: alertSettingsSchema, answer: answer<AlertSettings>(), audience: ['caller-only'] }),
);

/** Every account, as a super-admin manages them (server/routes/users-admin.ts). */
export const userAdminCalls = area(
  GET('/users/', { roles: SUPER_ONLY, query: userListQuerySchema, answer: answer<UserListPage>() }),
  /** A manager or an admin of a company, active at once. */
  POST('/users/staff/', {
    roles: SUPER_ONLY,
    body: staffCreateSchema,
    status: 201,
    answer: answer<UserWire>(),
    invalidates: PEOPLE,
    audience: ['caller', 'user:answer.id'],
  }),
  /** Any user's fields, role, company, activity or password. */
  PUT('/users/:id/', { roles: SUPER_ONLY, body: userAdminUpdateSchema, answer: answer<UserWire>(), invalidates: PEOPLE, audience: ['caller', 'user:param.id'] }),
);

/** The drivers staff manage (server/routes/drivers.ts). */
export const driverCalls = area(
  GET('/users/drivers/', { roles: STAFF, query: driverListQuerySchema, answer: answer<DriverListItem[]>() }),
  POST('/users/drivers/', {
    roles: STAFF,
    body: driverCreateSchema,
    status: 201,
    answer: answer<UserWire>(),
    invalidates: PEOPLE,
    audience: ['caller', 'user:answer.id'],
  }),
  PUT('/users/drivers/:id/', { roles: STAFF, body: driverUpdateSchema, answer: answer<UserWire>(), invalidates: PEOPLE, audience: ['caller', 'user:param.id'] }),
  /** A driver with history is deactivated, one without is erased; the answer says which. */
  DELETE('/users/drivers/:id/', { roles: STAFF, answer: answer<DriverRemoval>(), invalidates: PEOPLE, audience: ['caller', 'user:param.id'] }),
);

export const userCalls = { ...profileCalls, ...userSettingsCalls, ...userAdminCalls, ...driverCalls };
