// Pure decisions of the service worker, kept apart so they can be unit-tested without a worker scope.

/** workbox-window's messageSkipWaiting() posts exactly this type. */
export const SKIP_WAITING_MESSAGE = 'SKIP_WAITING';

/** Same-origin API and Socket.IO traffic: always from the network, never stored. */
export function isNeverCached(url: URL, origin: string): boolean {
  if (url.origin !== origin) return false;
  return /^\/(api|socket\.io)(\/|$)/.test(url.pathname);
}
