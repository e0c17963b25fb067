import { tradeCsvLine, tradesCsvFileName, tradesCsvHeader } from '../../../../contract/csv';
import type { CacheDb } from '../../../cache/db';
import type { ExportFilter } from '../tradesExport';
import type { HistoryMeta } from './historyMeta';
import { queryLocalTrades, type LocalCoverage } from './localTrades';

export interface LocalCsv {
  text: string;
  fileName: string;
  rows: number;
  coverage: LocalCoverage;
}

/**
 * The offline CSV: the same columns and lines as the server's export (contract/csv.ts), built from the trades kept in
 * IndexedDB, newest first, within the range the history sync vouches for (so no file silently skips trades that were
 * never downloaded). `coverage` says how far back that is.
 */
export async function localTradesCsv(db: CacheDb, filter: ExportFilter, meta: HistoryMeta | null): Promise<LocalCsv> {
  const vouched = meta?.contiguousFrom ?? '';
  // ISO strings of one format compare as their instants do; the index holds createdAt as the server sent it.
  const lower = [vouched, filter.from ?? ''].reduce((a, b) => (a > b ? a : b));
  const range =
    lower && filter.to
      ? IDBKeyRange.bound(lower, filter.to, false, true)
      : lower
        ? IDBKeyRange.lowerBound(lower)
        : filter.to
          ? IDBKeyRange.upperBound(filter.to, true)
          : null;
  let text = tradesCsvHeader();
  let rows = 0;
  const tx = db.transaction('trades');
  for (
    let cursor = await tx.store.index('createdAt').openCursor(range, 'prev');
    cursor;
    cursor = await cursor.continue()
  ) {
    const t = cursor.value;
    if ((filter.status && t.status !== filter.status) || (filter.symbol && t.symbol !== filter.symbol)) continue;
    text += tradeCsvLine(t);
    rows++;
  }
  await tx.done;
  const { coverage } = await queryLocalTrades(db, { status: '', symbol: '', page: 1, limit: 1 }, meta);
  return { text, rows, coverage, fileName: tradesCsvFileName(filter.from, filter.to) };
}
