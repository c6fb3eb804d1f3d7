/**
 * Sign-ups are anonymous and each costs a password hash and a line in a company's pending list:
 * at most `SIGNUPS_PER_ADDRESS` an hour from one address and `SIGNUPS_PER_COMPANY` an hour into one company (config), for both sign-up
 * routes together (POST /registration-requests/ and POST /users/). Only a valid request counts. Per instance, in
 * memory, as the login throttle (server/rate-limit.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { RateLimiter } from '../rate-limit.ts';
import { tooManyRequests } from '../errors.ts';

const HOUR = 60 * 60 * 1000;

const limits = new WeakMap<AppContext, { address: RateLimiter; company: RateLimiter }>();

/** Counts one sign-up, or refuses it with 429 and Retry-After (nothing counted then). */
export function countSignup(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, companyId: number): void {
  let pair = limits.get(ctx);
  if (!pair) {
    pair = { address: new RateLimiter(ctx.config.signupsPerAddress, HOUR), company: new RateLimiter(ctx.config.signupsPerCompany, HOUR) };
    limits.set(ctx, pair);
  }
  const byAddress = `ip:${request.ip}`;
  const byCompany = `company:${companyId}`;
  for (const [limiter, key, text] of [
    [pair.address, byAddress, 'Слишком много заявок на регистрацию с этого адреса'],
    [pair.company, byCompany, 'Слишком много заявок на регистрацию в эту компанию'],
  ] as const) {
    if (limiter.isBlocked(key)) {
      const seconds = limiter.retryAfterSeconds(key);
      void reply.header('retry-after', String(seconds));
      throw tooManyRequests(`${text}: попробуйте через ${Math.max(1, Math.ceil(seconds / 60))} мин.`);
    }
  }
  pair.address.hit(byAddress);
  pair.company.hit(byCompany);
}
