// The short-lived token between the password step and the two-factor step of a sign-in. Its audience differs from a
// session token's and it names no session, so it can never be used as one (tokens.ts requires `sid`).
import { SignJWT, jwtVerify } from 'jose';

const AUDIENCE = 'arbitrage-pwa:2fa-challenge';
export const CHALLENGE_TTL_SECONDS = 5 * 60;

export function signChallenge(key: Uint8Array, userId: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS)
    .sign(key);
}

/** The user id of a valid, unexpired challenge; null otherwise. */
export async function verifyChallenge(key: Uint8Array, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: AUDIENCE });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
