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

/**
 * Verified tokens remembered until they expire. A signature check is a pure function of the token, and jose's HMAC
 * goes through WebCrypto's thread pool (the largest CPU cost of an authenticated read under load); revocation is
 * unaffected, since the session row is still checked on every request.
 */
const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenService(key: Uint8Array): TokenService {
  const verified = new Map<string, TokenClaims>();
  const remember = (token: string, claims: TokenClaims) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, claims);
  };
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
      const known = verified.get(token);
      if (known) {
        if (known.exp * 1000 > Date.now()) return known;
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER });
        const { sub, sid, role, exp } = payload;
        if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') return null;
        if (!ROLES.includes(role as Role)) return null;
        const claims = { sub, sid, role: role as Role, exp };
        remember(token, claims);
        return claims;
      } catch {
        return null;
      }
    },
  };
}
