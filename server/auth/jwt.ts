/** Access tokens: short-lived HS256 JWTs carrying the user id and role. */
import { SignJWT, jwtVerify, errors } from 'jose';
import type { Role } from '../../contract/roles.ts';

export interface AccessClaims {
  sub: string;
  role: Role;
  device_id: string;
  /** The session (refresh-token family) the token belongs to: a logged-out session's tokens stop at once. */
  sid?: string | undefined;
}

export class AccessTokens {
  private readonly key: Uint8Array;

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
    try {
      // A token without exp would never expire: refused even when correctly signed.
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
      if (payload.typ !== 'access' || typeof payload.sub !== 'string') return null;
      return {
        sub: payload.sub,
        role: payload.role as Role,
        device_id: String(payload.device_id ?? ''),
        sid: typeof payload.sid === 'string' ? payload.sid : undefined,
      };
    } catch (e) {
      if (e instanceof errors.JOSEError) return null;
      throw e;
    }
  }
}
