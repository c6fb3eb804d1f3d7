/**
 * Registration requests: public sign-up creates a pending request (the password already hashed), and
 * staff approval turns it into a user. Nobody can log in before approval.
 */
import type { Selectable } from 'kysely';
import type { RegistrationReceipt, RegistrationRequest, RegistrationReviewer } from '../../contract/entities.ts';
import type { RegistrationPayload } from '../../contract/payloads.ts';
import type { Role } from '../../contract/roles.ts';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { RegistrationRequestsTable } from '../db/schema.ts';
import { type AuthUser, inScope } from '../auth/guard.ts';
import { hashPassword } from '../auth/passwords.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { createAccount, emailIsTaken } from './accounts.ts';

type RequestRow = Selectable<RegistrationRequestsTable> & { company_name: string | null };

/**
 * A public sign-up answers the same for an e-mail that is a user and one with a pending request: it does not
 * tell which (docs/hardening.md, «What a sign-up reveals»). Staff creating a user see EMAIL_TAKEN.
 */
export const EMAIL_KNOWN = 'Этот e-mail уже зарегистрирован или ждёт подтверждения заявки: войдите или дождитесь подтверждения';
export const REQUEST_APPROVED = 'Заявка уже подтверждена';
export const REQUEST_REJECTED = 'Заявка уже отклонена';

export function registrationWire(row: RequestRow): RegistrationRequest {
  const isDriver = row.role === 'driver';
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    company_id: row.company_id,
    company_name: row.company_name,
    role: row.role as Role,
    status: row.status === 'approved' || row.status === 'rejected' ? row.status : 'pending',
    reject_reason: row.reject_reason,
    created_at: row.created_at,
    vehicle_number: row.vehicle_number,
    vehicle_brand: row.vehicle_brand,
    vehicle_capacity: row.vehicle_capacity,
    // The screen reads the vehicle from current_transport or from the request itself (docs/product.md §3).
    current_transport:
      isDriver && row.vehicle_number
        ? { vehicle_number: row.vehicle_number, vehicle_brand: row.vehicle_brand ?? '', vehicle_capacity: row.vehicle_capacity }
        : null,
  };
}

function selectRequests(db: Db) {
  return db.kysely
    .selectFrom('registration_requests')
    .leftJoin('companies', 'companies.id', 'registration_requests.company_id')
    .selectAll('registration_requests')
    .select('companies.name as company_name');
}

/** Whether the company has an active account that may approve a request for `role` (see approveRequest). */
async function reviewerOf(db: Db, companyId: number, role: string): Promise<RegistrationReviewer> {
  const approvers = role === 'driver' ? ['manager', 'admin'] : ['admin'];
  const row = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('role', 'in', approvers)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return row ? 'company' : 'super-admin';
}

export async function createRegistrationRequest(db: Db, body: RegistrationPayload): Promise<RegistrationReceipt> {
  const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', body.company_id).executeTakeFirst();
  if (!company) throw badRequest('company_id: компания не найдена');
  if (await emailIsTaken(db.kysely, body.email)) throw conflict(EMAIL_KNOWN);
  const pending = await db.kysely
    .selectFrom('registration_requests')
    .select('id')
    .where('email', '=', body.email)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (pending) throw conflict(EMAIL_KNOWN);

  const isDriver = body.role === 'driver';
  const { id } = await db.kysely
    .insertInto('registration_requests')
    .values({
      email: body.email,
      password_hash: await hashPassword(body.password),
      name: body.name,
      phone: body.phone,
      company_id: body.company_id,
      role: body.role,
      // Vehicles belong to drivers only; a manager's request keeps none.
      vehicle_number: isDriver ? body.vehicle_number || null : null,
      vehicle_brand: isDriver ? body.vehicle_brand || null : null,
      vehicle_capacity: isDriver ? (body.vehicle_capacity ?? null) : null,
      status: 'pending',
      created_at: nowIso(),
      approved_at: null,
      approved_by: null,
      user_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const request = registrationWire(await selectRequests(db).where('registration_requests.id', '=', id).executeTakeFirstOrThrow());
  return { ...request, reviewer: await reviewerOf(db, body.company_id, body.role) };
}

/** Pending requests the user may decide on: their company's, or all for a super-admin. */
export async function listPendingRequests(db: Db, user: AuthUser): Promise<RegistrationRequest[]> {
  let query = selectRequests(db).where('registration_requests.status', '=', 'pending');
  if (user.role !== 'super-admin') query = query.where('registration_requests.company_id', '=', user.company_id ?? -1);
  const rows = await query.orderBy('registration_requests.created_at').orderBy('registration_requests.id').execute();
  return rows.map(registrationWire);
}

/**
 * Creates the user from the request (its password hash, and a driver's vehicle as the current one).
 * A manager approves only drivers; managers and admins only within their company (others' requests are 404).
 */
export async function approveRequest(db: Db, requestId: number, approver: AuthUser): Promise<number> {
  const request = await decidableRequest(db, requestId, approver, 'Менеджер может подтверждать только заявки водителей');

  return db.kysely.transaction().execute(async (trx) => {
    // Conditional update first: of two approvals racing, only one creates the user.
    const claimed = await trx
      .updateTable('registration_requests')
      .set({ status: 'approved', approved_at: nowIso(), approved_by: approver.id })
      .where('id', '=', requestId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw conflict(await decidedText(trx, requestId));
    const userId = await createAccount(trx, {
      email: request.email,
      password_hash: request.password_hash,
      name: request.name,
      phone: request.phone,
      role: request.role as Role,
      company_id: request.company_id,
      vehicle:
        request.role === 'driver' && request.vehicle_number
          ? { vehicle_number: request.vehicle_number, vehicle_brand: request.vehicle_brand, vehicle_capacity: request.vehicle_capacity }
          : null,
    });
    await trx.updateTable('registration_requests').set({ user_id: userId }).where('id', '=', requestId).execute();
    return userId;
  });
}

/** The request, when the caller may decide on it now: 404 outside their company, 409 once decided, 403 for a manager and staff. */
async function decidableRequest(db: Db, requestId: number, decider: AuthUser, managerRefusal: string) {
  const request = await selectRequests(db).where('registration_requests.id', '=', requestId).executeTakeFirst();
  if (!request || !inScope(decider, request.company_id)) throw notFound('Заявка не найдена');
  if (request.status === 'approved') throw conflict(REQUEST_APPROVED);
  if (request.status === 'rejected') throw conflict(REQUEST_REJECTED);
  if (decider.role === 'manager' && request.role !== 'driver') throw forbidden(managerRefusal);
  return request;
}

async function decidedText(db: Db['kysely'], requestId: number): Promise<string> {
  const row = await db.selectFrom('registration_requests').select('status').where('id', '=', requestId).executeTakeFirst();
  return row?.status === 'rejected' ? REQUEST_REJECTED : REQUEST_APPROVED;
}

/**
 * Rejects a pending request with a reason, under the rules of approval. The e-mail is free again: the applicant
 * may apply anew, and until then a sign-in with the request's password is told the reason (server/routes/auth.ts).
 */
export async function rejectRequest(db: Db, requestId: number, decider: AuthUser, reason: string): Promise<RegistrationRequest> {
  await decidableRequest(db, requestId, decider, 'Менеджер может отклонять только заявки водителей');
  const claimed = await db.kysely
    .updateTable('registration_requests')
    .set({ status: 'rejected', rejected_at: nowIso(), rejected_by: decider.id, reject_reason: reason })
    .where('id', '=', requestId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw conflict(await decidedText(db.kysely, requestId));
  return registrationWire(await selectRequests(db).where('registration_requests.id', '=', requestId).executeTakeFirstOrThrow());
}
