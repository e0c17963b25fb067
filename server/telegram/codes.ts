// One-time link codes: 10 characters from an alphabet without look-alikes (about 50 bits, so guessing one inside its
// ten minutes, at the throttled rate, is hopeless), stored only as their SHA-256.
import { createHash, randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const CODE_LENGTH = 10;

export function newLinkCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** Codes are compared in lower case, so one typed by hand from the screen still matches. */
export const hashLinkCode = (code: string) => createHash('sha256').update(code.trim().toLowerCase()).digest('hex');

export const looksLikeLinkCode = (text: string) => /^[a-z0-9]{10}$/i.test(text.trim());
