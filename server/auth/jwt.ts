/**
 * Access tokens: short-lived HS256 JWTs carrying the user id and role. A token whose signature checked out is
 * remembered (the exact string) with its claims until its `exp`: a client sends the same token on every call for
 * its 15 minutes, and jose's WebCrypto HMAC (an async job per call) was the largest cost of an authenticated GET.
 * A forged, malformed or expired token is never remembered; a remembered one past its `exp` is checked anew
 * (and refused) exactly as the first time.
 */
import { SignJWT, jwtVerify, errors } from 'jose';
import type { Role } from '../../contract/roles.ts';

export interface AccessClaims {
  sub: string;
  role: Role;
  device_id: string;
  /** The session (refresh-token family) the token belongs to: a logged-out session's tokens stop at once. */
  sid?: string | undefined;
}

/** How many verified tokens one process remembers; past it the memory starts over (a bound, not an LRU). */
export const VERIFIED_TOKENS_KEPT = 10_000;

interface Verified {
  claims: Readonly<AccessClaims>;
  /** Seconds since the epoch, as in the token. */
  exp: number;
  nbf: number | undefined;
}

export class AccessTokens {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, Verified>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ role: claims.role, device_id: claims.device_id, typ: 'access', ...(claims.sid ? { sid: claims.sid } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(this.key);
  }

  /** Returns the claims, or null for a token that is malformed, forged or expired. */
  async verify(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      // jose's own time rule: expired when exp <= now, not yet valid when nbf > now (whole seconds, no tolerance).
      const now = Math.floor(Date.now() / 1000);
      if (known.exp > now && (known.nbf === undefined || known.nbf <= now)) return known.claims;
      this.verified.delete(token);
    }
    try {
      // A token without exp would never expire: refused even when correctly signed.
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
      if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      const claims: Readonly<AccessClaims> = Object.freeze({
        sub: payload.sub,
        role: payload.role as Role,
        device_id: String(payload.device_id ?? ''),
        sid: typeof payload.sid === 'string' ? payload.sid : undefined,
      });
      if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.clear();
      this.verified.set(token, { claims, exp: payload.exp, nbf: typeof payload.nbf === 'number' ? payload.nbf : undefined });
      return claims;
    } catch (e) {
      if (e instanceof errors.JOSEError) return null;
      throw e;
    }
  }
}
