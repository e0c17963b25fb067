// Credentials are write-only: the API shows that a secret (the Binance secret key, the Deriv token) is saved and
// nothing of it, and the last 4 characters of the public Binance API key, so a user can tell which key is saved.
export const MASK_PREFIX = '••••';

/** The part of a public key that may be stored in clear for display: its last 4 characters (none of a tiny one). */
export function lastFour(secret: string): string {
  // Very short secrets would be revealed whole; show nothing of them.
  return secret.length >= 8 ? secret.slice(-4) : '';
}

/** '••••abcd' for a saved key shown in part, '••••' for a saved secret, '' when none is saved. */
export function maskSecret(last4: string | null | undefined, saved: boolean): string {
  if (!saved) return '';
  return MASK_PREFIX + (last4 ?? '');
}
