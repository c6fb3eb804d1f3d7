/** The user a guard put on the request; a route without a guard has none. */
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/guard.ts';
import { unauthorized } from '../errors.ts';

export function userOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
