// Binance request signing as the venue checks it: HMAC-SHA256 over the exact bytes received.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function binanceSignature(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/**
 * Splits the signature off a request as received. Binance signs "totalParams": the query string followed directly
 * by the body, both byte for byte as sent, with the `signature` parameter taken out of whichever carries it.
 */
export function extractSignature(rawQuery: string, rawBody: string): { payload: string; signature: string | null } {
  const strip = (text: string): { rest: string; signature: string | null } => {
    const match = /(^|&)signature=([^&]*)/.exec(text);
    if (!match) return { rest: text, signature: null };
    const rest = text.slice(0, match.index) + text.slice(match.index + match[0].length);
    return { rest: rest.startsWith('&') ? rest.slice(1) : rest, signature: decodeURIComponent(match[2] ?? '') };
  };
  const fromQuery = strip(rawQuery);
  const fromBody = strip(rawBody);
  return { payload: fromQuery.rest + fromBody.rest, signature: fromQuery.signature ?? fromBody.signature };
}

export function signatureMatches(secret: string, payload: string, signature: string): boolean {
  const expected = Buffer.from(binanceSignature(secret, payload), 'utf8');
  const given = Buffer.from(signature.toLowerCase(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
