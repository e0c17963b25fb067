// Secrets are write-only: the API shows at most their last 4 characters.
export const MASK_PREFIX = '••••';

/** The part of a secret that may be stored in clear for display: its last 4 characters (fewer for tiny values). */
export function lastFour(secret: string): string {
  // Very short secrets would be revealed whole; show nothing of them.
  return secret.length >= 8 ? secret.slice(-4) : '';
}

/** '••••abcd' for a saved secret, '' when none is saved. */
export function maskSecret(last4: string | null | undefined, saved: boolean): string {
  if (!saved) return '';
  return MASK_PREFIX + (last4 ?? '');
}
