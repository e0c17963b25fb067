// The shape of Binance API credentials, one rule for the server's schema and the Settings form, so both say the same
// thing. Binance's HMAC API keys and secret keys are 64 letters and digits; a shorter one (some test networks') is
// accepted from 8 characters, never spaces or other characters a key cannot hold ('abc' is refused).
export const BINANCE_KEY_MIN = 8;
export const BINANCE_KEY_MAX = 128;
const KEY_PATTERN = /^[A-Za-z0-9]+$/;

/** What is wrong with a typed Binance key or secret ('API key', 'secret key'); null when it has a key's shape. */
export function binanceKeyProblem(value: string, which: 'API key' | 'secret key'): string | null {
  if (value === '') return null;
  const name = `The Binance ${which}`;
  if (/\s/.test(value)) return `${name} has spaces in it: paste it again without them`;
  if (!KEY_PATTERN.test(value)) return `${name} has only letters and digits: paste it again`;
  if (value.length < BINANCE_KEY_MIN) return `${name} is too short: Binance's keys are 64 letters and digits`;
  if (value.length > BINANCE_KEY_MAX) return `${name} is too long (at most ${BINANCE_KEY_MAX} characters)`;
  return null;
}
