/**
 * Route guards. `ctx.guard(roles)` is a preHandler: 401 without a valid bearer token or for a
 * deactivated user, 403 when the user's role is not among `roles`. The loaded user is on `request.user`.
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Role } from '../../contract/roles.ts';
import type { Db } from '../db/connect.ts';
import type { UserRow } from '../db/schema.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { queryTemplate } from '../db/template.ts';
import type { AccessTokens } from './jwt.ts';
import type { RefreshTokens } from './refresh.ts';

export interface AuthUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  company_id: number | null;
  device_id: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export type Guard = (roles?: readonly Role[]) => preHandlerAsyncHookHandler;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

export function toAuthUser(row: Pick<UserRow, 'id' | 'email' | 'name' | 'role' | 'company_id'>, deviceId: string): AuthUser {
  return { id: row.id, email: row.email, name: row.name, role: row.role as Role, company_id: row.company_id, device_id: deviceId };
}

/** The session checks of a request: the signed token, and (with `sessions`) the session it belongs to. */
export interface AuthChecks {
  db: Db;
  tokens: AccessTokens;
  sessions?: RefreshTokens;
}

/**
 * Resolves the request's user from its bearer token, or null. Never throws for a bad token. Refused: a
 * token of a deactivated user, of a session that was ended (logout on the device, deactivation, a new
 * password; checked through `sid` when `sessions` is given), or one issued for a role the user no longer
 * has — the client's refresh then gets a token with the new role, or the reason it cannot.
 */
const userById = queryTemplate((db, id: number) =>
  db.selectFrom('users').select(['id', 'email', 'name', 'role', 'company_id', 'is_active']).where('id', '=', id),
);

export async function authenticate(request: FastifyRequest, checks: AuthChecks): Promise<AuthUser | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const claims = await checks.tokens.verify(token);
  if (!claims) return null;
  const id = Number(claims.sub);
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await userById(checks.db.kysely, id);
  if (!row || !row.is_active || row.role !== claims.role) return null;
  if (claims.sid && checks.sessions && !(await checks.sessions.isLive(claims.sid))) return null;
  return toAuthUser(row, claims.device_id);
}

export function makeGuard(checks: AuthChecks): Guard {
  return (roles) =>
    async function guard(request: FastifyRequest, _reply: FastifyReply) {
      const user = await authenticate(request, checks);
      if (!user) throw unauthorized();
      if (roles && !roles.includes(user.role)) throw forbidden();
      request.user = user;
    };
}

/** The user a guard has put on the request; a route without a guard has none, which is our bug, not the client's. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** Data scope (domain notes): a super-admin sees every company, everyone else only their own. */
export function inScope(user: AuthUser, companyId: number | null): boolean {
  return user.role === 'super-admin' || (companyId !== null && user.company_id === companyId);
}
