// Who is on the other end of a socket, and how the gateway learns it from the handshake.
import type { IncomingHttpHeaders } from 'node:http';

/** What the core's `verifyToken` resolves for a valid, unrevoked token of an active user. */
export interface SocketIdentity {
  id: string;
  role?: string;
  sessionId?: string;
}

/** Resolves the identity behind a token, or null when it is invalid, expired, revoked or the user is inactive. */
export type VerifyToken = (token: string) => Promise<SocketIdentity | null>;

/** The token from the handshake: `auth.token` (what the client sends), else an `Authorization: Bearer` header. */
export function tokenFromHandshake(handshake: {
  auth: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}): string | null {
  const fromAuth = handshake.auth?.token;
  if (typeof fromAuth === 'string' && fromAuth.length > 0) return fromAuth;
  const header = handshake.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (match?.[1]) return match[1];
  }
  return null;
}

/** A verifyToken that treats a thrown error (database down, malformed token) as "not signed in". */
export async function safeVerify(verifyToken: VerifyToken, token: string): Promise<SocketIdentity | null> {
  try {
    return await verifyToken(token);
  } catch {
    return null;
  }
}

/**
 * When a token stops being valid (ms since the epoch), from its `exp` claim; null when it carries none. Read only
 * from a token the core has already verified, so the claim can be trusted without checking the signature again.
 */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}
