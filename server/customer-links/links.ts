/**
 * The customer's links (docs/customer-link.md): made by staff for a customer of their company, listed with their
 * last use, revoked. A link's token is 32 bytes of `crypto.randomBytes` in base64url, shown once; the database keeps
 * only its SHA-256. Opening a link (`openLink`) is the one gate of every public call and of the page: a wrong token
 * 404 (and counted against the address: past the limit every lookup from it is 429), a revoked or expired one 410;
 * a good one records the view (when, which page, the address).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/guard.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/connect.ts';
import { HttpError, badRequest, notFound } from '../errors.ts';
import { RateLimiter } from '../rate-limit.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import type { CustomerLink, CustomerLinkCreate, CustomerLinkCreated } from '../../contract/customer-links.ts';

type Q = Kysely<Database>;

/** Wrong tokens one address may try in the window before every lookup from it is refused. */
export const LINK_GUESSES = { limit: 20, windowMs: 15 * 60_000 };
/** Views of one page from one address this close together are counted on one row. */
const VIEW_MERGE_MS = 10 * 60_000;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const newToken = (): string => randomBytes(32).toString('base64url');

/** One limiter per database (so per app): the API's calls and the page share it. */
const limiters = new WeakMap<object, RateLimiter>();
export function guessLimiter(db: object): RateLimiter {
  let limiter = limiters.get(db);
  if (!limiter) {
    limiter = new RateLimiter(LINK_GUESSES.limit, LINK_GUESSES.windowMs);
    limiters.set(db, limiter);
  }
  return limiter;
}

export interface OpenLink {
  id: number;
  company_id: number;
  counterparty_id: number;
  expires_at: string;
}

export class LinkGone extends HttpError {
  constructor(detail: string) {
    super(410, detail);
  }
}

const GONE_REVOKED = 'Ссылка отозвана перевозчиком. Попросите у него новую ссылку.';
const GONE_EXPIRED = 'Срок действия ссылки истёк. Попросите у перевозчика новую ссылку.';
const NOT_FOUND = 'Ссылка не найдена. Проверьте, что она скопирована целиком.';

/** The link a token opens, its view recorded; 404 / 410 / 429 as the module's header says. */
export async function openLink(db: Q, limiter: RateLimiter, token: string, request: FastifyRequest, page: string): Promise<OpenLink> {
  const address = request.ip;
  if (limiter.isBlocked(address)) {
    throw new HttpError(429, 'Слишком много неверных ссылок с этого адреса. Попробуйте позже.', { 'retry-after': String(limiter.retryAfterSeconds(address)) });
  }
  const link = /^[A-Za-z0-9_-]{22,64}$/.test(token)
    ? await db.selectFrom('customer_links').select(['id', 'company_id', 'counterparty_id', 'expires_at', 'revoked_at']).where('token_hash', '=', hashToken(token)).executeTakeFirst()
    : undefined;
  if (!link) {
    limiter.hit(address);
    throw notFound(NOT_FOUND);
  }
  if (link.revoked_at) throw new LinkGone(GONE_REVOKED);
  const now = nowIso();
  if (link.expires_at <= now) throw new LinkGone(GONE_EXPIRED);
  await recordView(db, link.id, page, address, now);
  return { id: link.id, company_id: link.company_id, counterparty_id: link.counterparty_id, expires_at: link.expires_at };
}

async function recordView(db: Q, linkId: number, page: string, address: string, now: string): Promise<void> {
  const since = new Date(Date.parse(now) - VIEW_MERGE_MS).toISOString();
  const recent = await db
    .selectFrom('customer_link_views')
    .select(['id'])
    .where('link_id', '=', linkId)
    .where('page', '=', page)
    .where('address', '=', address)
    .where('at', '>=', since)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (recent) await db.updateTable('customer_link_views').set((eb) => ({ at: now, count: eb('count', '+', 1) })).where('id', '=', recent.id).execute();
  else await db.insertInto('customer_link_views').values({ link_id: linkId, at: now, first_at: now, page, address }).execute();
  await db.updateTable('customer_links').set({ last_used_at: now }).where('id', '=', linkId).execute();
}

/** A customer of a company the caller sees (another's, or not a customer: 404 / 400). */
async function customerOf(db: Q, user: AuthUser, counterpartyId: number) {
  const row = await db.selectFrom('counterparties').select(['id', 'company_id', 'roles', 'name']).where('id', '=', counterpartyId).executeTakeFirst();
  if (!row) throw notFound('Заказчик не найден');
  assertStaffSeesCompany(user, row.company_id, 'Заказчик не найден');
  if (!(JSON.parse(row.roles) as string[]).includes('customer')) throw badRequest(`Заказчик: «${row.name}» — не заказчик (в карточке нет роли «Заказчик»)`);
  return row;
}

export async function createLink(db: Q, user: AuthUser, body: CustomerLinkCreate): Promise<CustomerLinkCreated> {
  const customer = await customerOf(db, user, body.counterparty_id);
  const token = newToken();
  const now = new Date();
  const expires = new Date(now.getTime() + body.days * 86_400_000).toISOString();
  const row = await db
    .insertInto('customer_links')
    .values({ company_id: customer.company_id, counterparty_id: customer.id, token_hash: hashToken(token), created_by: user.id, created_at: now.toISOString(), expires_at: expires })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, url: `/c/${token}`, token, expires_at: expires };
}

export async function listLinks(db: Q, user: AuthUser, counterpartyId: number): Promise<CustomerLink[]> {
  await customerOf(db, user, counterpartyId);
  const rows = await linkRows(db).where('l.counterparty_id', '=', counterpartyId).orderBy('l.id', 'desc').execute();
  return Promise.all(rows.map((r) => toLink(db, r)));
}

/** Links with who made them. */
const linkRows = (db: Q) => db.selectFrom('customer_links as l').leftJoin('users as u', 'u.id', 'l.created_by').selectAll('l').select('u.name as created_by_name');

type LinkRow = { id: number; company_id: number; counterparty_id: number; created_at: string; expires_at: string; revoked_at: string | null; last_used_at: string | null; created_by_name: string | null };

async function toLink(db: Q, r: LinkRow): Promise<CustomerLink> {
  const [last, total] = await Promise.all([
    db.selectFrom('customer_link_views').select(['page', 'address']).where('link_id', '=', r.id).orderBy('at', 'desc').orderBy('id', 'desc').executeTakeFirst(),
    db.selectFrom('customer_link_views').select((eb) => eb.fn.sum<number | string | null>('count').as('n')).where('link_id', '=', r.id).executeTakeFirstOrThrow(),
  ]);
  const state = r.revoked_at ? 'revoked' : r.expires_at <= nowIso() ? 'expired' : 'active';
  return {
    id: r.id,
    counterparty_id: r.counterparty_id,
    company_id: r.company_id,
    created_at: r.created_at,
    created_by_name: r.created_by_name,
    expires_at: r.expires_at,
    revoked_at: r.revoked_at,
    last_used_at: r.last_used_at,
    last_page: last?.page ?? null,
    last_address: last?.address ?? null,
    views: Number(total.n ?? 0),
    state,
  };
}

export async function revokeLink(db: Q, user: AuthUser, id: number): Promise<CustomerLink> {
  const row = await db.selectFrom('customer_links').select(['id', 'company_id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Ссылка не найдена');
  assertStaffSeesCompany(user, row.company_id, 'Ссылка не найдена');
  if (!row.revoked_at) await db.updateTable('customer_links').set({ revoked_at: nowIso() }).where('id', '=', id).execute();
  return toLink(db, await linkRows(db).where('l.id', '=', id).executeTakeFirstOrThrow());
}
