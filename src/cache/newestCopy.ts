import type { Trade } from '../../contract/entities';

/**
 * Which of two copies of one trade the cache keeps. Copies arrive by several paths (live events, Trades pages, the
 * history sync) and a slow answer can land after a newer live event: the copy saved later on the server wins, and on
 * equal times the copy handed in last, so an update in the same millisecond (pending → closed) is not lost.
 */
export function newestCopy(held: Trade | undefined, incoming: Trade): Trade {
  if (!held) return incoming;
  return Date.parse(held.updatedAt) > Date.parse(incoming.updatedAt) ? held : incoming;
}
