/**
 * Refresh tokens: random opaque strings, stored only as their sha256, one chain ("family") per login on
 * a device. Every use rotates: the presented token is marked used and a new one of the same family is
 * issued. A token that is presented again after its use means it was copied, so the whole family is
 * revoked and that device must log in again (the other devices of the user keep working).
 *
 * One exception, for phones on a bad network: the answer to a rotation can be lost (a 10 s time-out on 2g)
 * after the server already rotated. The client then presents the token it still holds. Within
 * REUSE_GRACE_MS of that token's use, while its successor has never been used, that is not theft but a
 * lost answer (10 min covers the engine's reconnect back-off): the unused successor is revoked and a fresh one issued, and the chain lives on.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import { unauthorized } from '../errors.ts';
import { queryTemplate } from '../db/template.ts';

export interface RefreshGrant {
  userId: number;
  deviceId: string;
  /** The session: the family's id, carried by the access tokens issued with this grant as `sid`. */
  familyId: string;
  /** The new token, to hand to the client; only its hash is stored. */
  token: string;
}

export const REFRESH_INVALID = 'Сессия недействительна, войдите заново';
export const REFRESH_EXPIRED = 'Сессия истекла, войдите заново';
export const REFRESH_REUSED = 'Токен обновления уже использован; вход на этом устройстве отозван';
export const ACCOUNT_DISABLED = 'Учётная запись отключена, обратитесь к администратору';

/** How long a session's liveness is remembered per process; another instance's logout is seen within it. */
export const SESSION_CACHE_MS = 2000;

/** How long after its use a token may come back because the client never got the rotation's answer. */
export const REUSE_GRACE_MS = 10 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const liveTokenOf = queryTemplate((db, familyId: string) =>
  db.selectFrom('refresh_tokens').select('id').where('family_id', '=', familyId).where('revoked_at', 'is', null).limit(1),
);

export class RefreshTokens {
  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
    /** How long a live session is remembered (0: every call asks the database; the load benchmark measures both). */
    private readonly sessionCacheMs: number = SESSION_CACHE_MS,
  ) {}

  private async insert(userId: number, deviceId: string, familyId: string, deviceInfo: string | null): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.db.kysely
      .insertInto('refresh_tokens')
      .values({
        user_id: userId,
        device_id: deviceId,
        family_id: familyId,
        token_hash: hashToken(token),
        device_info: deviceInfo,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + this.ttlSeconds * 1000).toISOString(),
        used_at: null,
        revoked_at: null,
      })
      .execute();
    return token;
  }

  /**
   * Starts a new family for a login. An earlier login of the same user on the same device is ended,
   * so a device holds one live chain; the user's expired rows are pruned while we are here.
   */
  async issue(userId: number, deviceId: string, deviceInfo: string | null): Promise<RefreshGrant> {
    const now = nowIso();
    await this.db.kysely
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('device_id', '=', deviceId)
      .where('revoked_at', 'is', null)
      .execute();
    await this.db.kysely.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('expires_at', '<', now).execute();
    this.forgetSessions();
    const familyId = randomUUID();
    return { userId, deviceId, familyId, token: await this.insert(userId, deviceId, familyId, deviceInfo) };
  }

  /** Uses a token once: answers the next one of its family, or throws 401 (revoking the family on reuse). */
  async rotate(token: string): Promise<RefreshGrant> {
    const row = await this.db.kysely
      .selectFrom('refresh_tokens')
      .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
      .select([
        'refresh_tokens.id',
        'refresh_tokens.user_id',
        'refresh_tokens.device_id',
        'refresh_tokens.family_id',
        'refresh_tokens.device_info',
        'refresh_tokens.expires_at',
        'refresh_tokens.used_at',
        'refresh_tokens.revoked_at',
        'users.is_active',
      ])
      .where('refresh_tokens.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    // A deactivated account is named as such, whatever became of its tokens.
    if (row && !row.is_active) throw unauthorized(ACCOUNT_DISABLED);
    if (!row || row.revoked_at) throw unauthorized(REFRESH_INVALID);
    if (row.used_at) {
      const regranted = row.is_active ? await this.regrantLostRotation(row) : null;
      if (regranted) return regranted;
      await this.revokeFamily(row.family_id);
      throw unauthorized(REFRESH_REUSED);
    }
    if (row.expires_at <= nowIso()) throw unauthorized(REFRESH_EXPIRED);

    // Conditional update: of two requests racing with the same token only one wins; the other is a reuse.
    const marked = await this.db.kysely
      .updateTable('refresh_tokens')
      .set({ used_at: nowIso() })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) {
      await this.revokeFamily(row.family_id);
      throw unauthorized(REFRESH_REUSED);
    }
    const next = await this.insert(row.user_id, row.device_id, row.family_id, row.device_info);
    return { userId: row.user_id, deviceId: row.device_id, familyId: row.family_id, token: next };
  }

  /**
   * The lost-answer case (see the top of this file): `row` was used less than REUSE_GRACE_MS ago, it is the
   * newest used token of its family, and its successor was never used. Answers a fresh successor, or null
   * when the reuse does not look like a lost answer.
   */
  private async regrantLostRotation(row: {
    id: number;
    user_id: number;
    device_id: string;
    family_id: string;
    device_info: string | null;
    used_at: string | null;
    expires_at: string;
  }): Promise<RefreshGrant | null> {
    if (!row.used_at || Date.now() - Date.parse(row.used_at) > REUSE_GRACE_MS) return null;
    if (row.expires_at <= nowIso()) return null;
    const family = await this.db.kysely
      .selectFrom('refresh_tokens')
      .select(['id', 'used_at', 'revoked_at', 'created_at'])
      .where('family_id', '=', row.family_id)
      .execute();
    // Another token of the family used since (or in the same millisecond: the clock's ISO time has no finer grain).
    if (family.some((t) => t.id !== row.id && t.used_at !== null && t.used_at >= row.used_at!)) return null;
    const live = family.filter((t) => t.used_at === null && t.revoked_at === null);
    const successor = live[0];
    if (live.length !== 1 || !successor || successor.created_at < row.used_at) return null;
    // Conditional, so of two such requests racing only one issues a new successor.
    const revoked = await this.db.kysely
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('id', '=', successor.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(revoked.numUpdatedRows) !== 1) throw unauthorized(REFRESH_INVALID);
    const next = await this.insert(row.user_id, row.device_id, row.family_id, row.device_info);
    return { userId: row.user_id, deviceId: row.device_id, familyId: row.family_id, token: next };
  }

  /** Ends the chain the token belongs to. Unknown tokens are ignored: logging out twice is fine. */
  async revoke(token: string): Promise<{ userId: number; deviceId: string } | null> {
    const row = await this.db.kysely
      .selectFrom('refresh_tokens')
      .select(['family_id', 'user_id', 'device_id'])
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row) return null;
    await this.revokeFamily(row.family_id);
    return { userId: row.user_id, deviceId: row.device_id };
  }

  /** Ends every chain of a user, e.g. when the account is deactivated. */
  async revokeUser(userId: number): Promise<void> {
    await this.db.kysely
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    this.forgetSessions();
  }

  private async revokeFamily(familyId: string): Promise<void> {
    await this.db.kysely
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
    this.forgetSessions();
  }

  private readonly liveUntil = new Map<string, number>();

  /**
   * Whether the session `familyId` still has a token that was not revoked (logout, deactivation, a new
   * password or role, theft). Live answers are remembered for SESSION_CACHE_MS; a revocation in this
   * process forgets them at once, another instance's is seen within that time.
   */
  async isLive(familyId: string): Promise<boolean> {
    const now = Date.now();
    if ((this.liveUntil.get(familyId) ?? 0) > now) return true;
    const [row] = await liveTokenOf(this.db.kysely, familyId);
    if (!row) return false;
    if (this.liveUntil.size > 10_000) this.liveUntil.clear();
    if (this.sessionCacheMs > 0) this.liveUntil.set(familyId, now + this.sessionCacheMs);
    return true;
  }

  private forgetSessions(): void {
    this.liveUntil.clear();
  }
}
