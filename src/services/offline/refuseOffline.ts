import { ApiError } from '../http';

/** The toast text when a call that needs the server is tried offline. */
export const OFFLINE_REFUSAL =
  "You're offline. This needs a connection to the server, so nothing was sent — your changes are still here.";

/** Thrown instead of sending: status 0 like a network failure, with our text as the message screens show. */
export class OfflineRefusal extends ApiError {
  constructor() {
    super(0, OFFLINE_REFUSAL, [], OFFLINE_REFUSAL);
    this.name = 'OfflineRefusal';
  }
}

/**
 * Wraps the write calls (saving settings or keys, profile, password, admin actions, status changes, sync): offline
 * they are refused at once, never queued, so nothing happens later behind the user's back. The screens show the
 * error's message as they show a server message, and keep the form as typed because the call failed.
 * Reads (`list*`) pass through: their failure offline is handled like any load failure.
 */
export function refuseWhenOffline<A extends Record<string, (...args: never[]) => Promise<unknown>>>(
  actions: A,
  isOnline: () => boolean,
): A {
  const guarded = {} as Record<string, unknown>;
  for (const [name, call] of Object.entries(actions)) {
    guarded[name] = name.startsWith('list')
      ? call
      : (...args: never[]) => (isOnline() ? call(...args) : Promise.reject(new OfflineRefusal()));
  }
  return guarded as A;
}
