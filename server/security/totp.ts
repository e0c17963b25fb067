// TOTP (RFC 6238) through the otpauth library, and one-time recovery codes. Codes are checked with one 30 s step of
// tolerance either way (phone clocks drift), and a step once accepted is never accepted again (no replay).
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { PRODUCT_NAME } from '../../contract/product';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from '../../contract/guard';

export const TOTP_ISSUER = PRODUCT_NAME;
const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/**
 * The time step the code belongs to when it is valid now (±1 step) and later than `lastStep`; null otherwise.
 */
export function acceptedStep(
  secretBase32: string,
  code: string,
  lastStep: number | null,
  now = Date.now(),
): number | null {
  const delta = totpOf(secretBase32, 'check').validate({ token: code, window: 1, timestamp: now });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes like `k7m2p-x9qra` (50 bits each from a 31-letter alphabet without look-alikes). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Recovery codes are stored as SHA-256 of their normalised form (lower case, no dash). */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
}

export const isTotpCode = (code: string) => /^\d{6}$/.test(code);
