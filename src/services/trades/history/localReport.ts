import type { Trade } from '../../../../contract/entities';
import type { UserCache } from '../../../cache/db';
import { readHistoryMeta } from './historyMeta';
import { queryLocalTrades, type LocalCoverage } from './localTrades';

/** The trades a P&L report is computed from, and how far back they reach. */
export interface ReportSource {
  trades: Trade[];
  coverage: LocalCoverage;
}

/**
 * Every trade kept on this device within the range the history sync vouches for (the sync keeps it in step with the
 * server while online, so the same report reads online and offline); null when the device holds no store.
 */
export async function localReportSource(cache: UserCache): Promise<ReportSource | null> {
  const db = await cache.db();
  if (!db) return null;
  const meta = await readHistoryMeta(cache);
  const from = meta?.contiguousFrom ?? '';
  const trades = await db.getAllFromIndex('trades', 'createdAt', from ? IDBKeyRange.lowerBound(from) : undefined);
  const { coverage } = await queryLocalTrades(db, { status: '', symbol: '', page: 1, limit: 1 }, meta);
  return { trades, coverage };
}
