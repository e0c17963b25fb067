import type { UserCache } from '../../../cache/db';

/**
 * What the history sync knows about the local copy of the user's trades. The copy is contiguous (every trade, none
 * missing) from the newest synced trade back to `contiguousFrom`; trades seen elsewhere (filtered pages) may reach
 * further back but with gaps, so offline queries stop at `contiguousFrom`.
 */
export interface HistoryMeta {
  /** createdAt (ISO) of the newest trade the last complete sync reached. */
  newestSynced: string;
  /** createdAt (ISO) of the oldest trade of the contiguous run. */
  contiguousFrom: string;
  /** The server's count of all the user's trades at the last sync. */
  serverTotal: number;
  /** Epoch ms of the last complete sync. */
  syncedAt: number;
  /**
   * Where the copy stands in the server's change feed (GET /trades/changes); the next sync asks only for what changed
   * after it. Absent (or null: the user had no trades) until a sync by pages has run.
   */
  cursor?: string | null;
}

export async function readHistoryMeta(cache: UserCache): Promise<HistoryMeta | null> {
  return (await cache.readSnapshot<HistoryMeta>('historySync'))?.data ?? null;
}

export function writeHistoryMeta(cache: UserCache, meta: HistoryMeta): Promise<void> {
  return cache.writeSnapshot('historySync', meta);
}
