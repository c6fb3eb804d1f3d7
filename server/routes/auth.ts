/**
 * /auth: login (tokens + the device's push subscription), refresh (rotation), logout, the roles list.
 * A wrong password and an unknown e-mail answer the same 401, so the form cannot be used to find accounts.
 */
import { randomUUID } from 'node:crypto';
import type { RouteModule } from '../context.ts';
import type { TokenPair } from '../../contract/entities.ts';
import { ROLES, ROLE_LABELS, type Role } from '../../contract/roles.ts';
import { authCalls } from '../../contract/calls/auth.ts';
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../errors.ts';
import { registerArea } from './define.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { RateLimiter } from '../rate-limit.ts';
import { ACCOUNT_DISABLED, type RefreshGrant } from '../auth/refresh.ts';
import { nowIso, type Db } from '../db/connect.ts';


export const BAD_CREDENTIALS = 'Неверный e-mail или пароль';
export const PENDING_REGISTRATION = 'Заявка на регистрацию ещё не подтверждена';

/** Failed logins allowed per e-mail and address within the window, before 429. */
const LOGIN_FAILURES = 10;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failed logins from one address, over every account it tried (against password spraying). */
const LOGIN_FAILURES_PER_ADDRESS = 30;

let dummyHash: Promise<string> | null = null;
/** Verifying against a throwaway hash keeps an unknown e-mail as slow as a wrong password. */
function spendVerifyTime(password: string): Promise<boolean> {
  dummyHash ??= hashPassword(randomUUID());
  return dummyHash.then((h) => verifyPassword(h, password));
}

/** A PushSubscription (its toJSON(), or that as a JSON string); anything else is the client's mistake. */
export function pushSubscriptionJson(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = null;
    }
  }
  const endpoint = (parsed as { endpoint?: unknown } | null)?.endpoint;
  if (typeof parsed !== 'object' || parsed === null || typeof endpoint !== 'string' || !/^https?:\/\//.test(endpoint)) {
    throw badRequest('push_subscription: ожидается подписка на уведомления с полем endpoint');
  }
  const json = JSON.stringify(parsed);
  if (json.length > 4096) throw badRequest('push_subscription: слишком длинная подписка');
  return json;
}

export async function storePushSubscription(db: Db, userId: number, deviceId: string, subscription: string): Promise<void> {
  await db.kysely
    .insertInto('push_subscriptions')
    .values({ user_id: userId, device_id: deviceId, subscription, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['user_id', 'device_id']).doUpdateSet({ subscription, created_at: nowIso() }))
    .execute();
}

/** Whether this device has held a session of this user (any refresh token, even an ended one). */
async function signedInBefore(db: Db, userId: number, deviceId: string): Promise<boolean> {
  const row = await db.kysely.selectFrom('refresh_tokens').select('id').where('user_id', '=', userId).where('device_id', '=', deviceId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export const authRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  const failures = new RateLimiter(LOGIN_FAILURES, LOGIN_WINDOW_MS);
  // Password spraying: many accounts tried from one address. Wide enough for a depot behind one NAT.
  const addressFailures = new RateLimiter(LOGIN_FAILURES_PER_ADDRESS, LOGIN_WINDOW_MS);

  async function tokenPair(grant: RefreshGrant, role: Role): Promise<TokenPair> {
    const accessToken = await ctx.tokens.sign({ sub: String(grant.userId), role, device_id: grant.deviceId, sid: grant.familyId });
    return { access_token: accessToken, refresh_token: grant.token, token_type: 'bearer' };
  }

  registerArea(app, ctx, authCalls, {
    'POST /auth/login/': async ({ body, request }) => {
      const subscription = pushSubscriptionJson(body.push_subscription);
      const email = body.username.toLowerCase();
      const throttleKey = `${email}|${request.ip}`;
      const addressKey = `ip:${request.ip}`;
      const refuse = (limiter: RateLimiter, key: string) => {
        const minutes = Math.ceil(limiter.retryAfterSeconds(key) / 60);
        return tooManyRequests(`Слишком много неудачных попыток входа. Повторите через ${minutes} мин.`);
      };
      // Each attempt is counted before its password is checked and given back unless it fails: a burst of attempts
      // in flight together cannot pass the limit (docs/hardening.md).
      const accountStamp = failures.take(throttleKey);
      if (accountStamp === null) throw refuse(failures, throttleKey);
      let addressStamp: number | null = null;
      let failed = false;
      const fail = (): never => {
        failed = true;
        throw unauthorized(BAD_CREDENTIALS);
      };
      const signIn = async () => {
        const user = await db.kysely
          .selectFrom('users')
          .select(['id', 'role', 'password_hash', 'is_active'])
          .where('email', '=', email)
          .executeTakeFirst();
        // An address under attack is closed to every account, except to a device that has signed in to this one
        // before (its id is a random UUID kept on the device; an attacker spraying passwords does not have it).
        // Drivers behind one carrier NAT with an attacker keep signing in on their own phones (docs/hardening.md).
        addressStamp = addressFailures.take(addressKey);
        if (addressStamp === null && !(user && body.device_id && (await signedInBefore(db, user.id, body.device_id)))) {
          throw refuse(addressFailures, addressKey);
        }
        if (!user) {
          // The newest request for the e-mail, waiting or rejected (a rejected applicant may have applied again).
          const request = await db.kysely
            .selectFrom('registration_requests')
            .select(['password_hash', 'status', 'reject_reason'])
            .where('email', '=', email)
            .where('status', 'in', ['pending', 'rejected'])
            .orderBy('id', 'desc')
            .executeTakeFirst();
          // Only someone who knows the password learns that the request exists, and why it was rejected.
          if (request && (await verifyPassword(request.password_hash, body.password))) {
            throw forbidden(request.status === 'rejected' ? `Заявка на регистрацию отклонена: ${request.reject_reason ?? 'причина не указана'}` : PENDING_REGISTRATION);
          }
          if (!request) await spendVerifyTime(body.password);
          return fail();
        }
        if (!(await verifyPassword(user.password_hash, body.password))) return fail();
        if (!user.is_active) throw forbidden(ACCOUNT_DISABLED);
        failures.reset(throttleKey);
        return user;
      };
      let user: Awaited<ReturnType<typeof signIn>>;
      try {
        user = await signIn();
      } finally {
        if (!failed) {
          failures.refund(throttleKey, accountStamp);
          if (addressStamp !== null) addressFailures.refund(addressKey, addressStamp);
        }
      }

      // A client that sends no device id still gets a chain of its own.
      const deviceId = body.device_id ?? `anonymous-${randomUUID()}`;
      const grant = await ctx.refresh.issue(user.id, deviceId, body.device_info ?? null);
      if (subscription) await storePushSubscription(db, user.id, deviceId, subscription);
      return tokenPair(grant, user.role as Role);
    },

    'POST /auth/refresh/': async ({ body: { refresh_token } }) => {
      const grant = await ctx.refresh.rotate(refresh_token);
      const user = await db.kysely.selectFrom('users').select('role').where('id', '=', grant.userId).executeTakeFirstOrThrow();
      return tokenPair(grant, user.role as Role);
    },

    'POST /auth/logout/': async ({ body: { refresh_token } }) => {
      const ended = await ctx.refresh.revoke(refresh_token);
      if (ended) {
        // A device that logged out must stop receiving the user's notifications.
        await db.kysely
          .deleteFrom('push_subscriptions')
          .where('user_id', '=', ended.userId)
          .where('device_id', '=', ended.deviceId)
          .execute();
      }
      return undefined;
    },

    'GET /auth/roles/': () => ROLES.map((name) => ({ name, label: ROLE_LABELS[name] })),
  });
};
