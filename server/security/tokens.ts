// Session tokens: HS256 JWTs carrying the user (sub), the session row (sid) and the role. A valid signature is not
// enough on its own — the session row must also be live (see server/http/plugins/auth.ts), which makes them revocable.
import { SignJWT, jwtVerify } from 'jose';
import type { Role } from '../../contract/domain';
import { ROLES } from '../../contract/domain';

export interface TokenClaims {
  sub: string;
  sid: string;
  role: Role;
  exp: number;
}

export interface TokenService {
  sign(claims: { sub: string; sid: string; role: Role }, expiresAt: Date): Promise<string>;
  /** The claims of a well-formed, correctly signed, unexpired token; null otherwise. */
  verify(token: string): Promise<TokenClaims | null>;
}

const ISSUER = 'arbitrage-pwa';

export function createTokenService(key: Uint8Array): TokenService {
  return {
    sign: ({ sub, sid, role }, expiresAt) =>
      new SignJWT({ sid, role })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key),
    verify: async (token) => {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER });
        const { sub, sid, role, exp } = payload;
        if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') return null;
        if (!ROLES.includes(role as Role)) return null;
        return { sub, sid, role: role as Role, exp };
      } catch {
        return null;
      }
    },
  };
}
