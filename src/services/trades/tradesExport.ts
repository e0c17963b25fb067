import type { SymbolId, TradeStatus } from '../../../contract/domain';
import type { UserCache } from '../../cache/db';
import { ApiError, type Http } from '../http';
import { readHistoryMeta } from './history/historyMeta';
import { localTradesCsv } from './history/localExport';
import type { LocalCoverage } from './history/localTrades';

/** The Trades screen's filters and a range of opening times: `from` inclusive, `to` exclusive, ISO instants. */
export interface ExportFilter {
  status?: TradeStatus | '';
  symbol?: SymbolId | '';
  from?: string;
  to?: string;
}

export interface ExportResult {
  blob: Blob;
  fileName: string;
  /** 'server': streamed by the server from the database; 'device': built from the trades kept on this device. */
  source: 'server' | 'device';
  /** For a device export: how far back the local copy reaches. */
  coverage?: LocalCoverage;
}

export interface TradesExportDeps {
  http: Http;
  cacheFor: (userId: string) => UserCache;
}

const CSV_TYPE = 'text/csv;charset=utf-8';

/** Online the server's streamed export; offline the same file from IndexedDB (never queued, never half of both). */
export function createTradesExport(deps: TradesExportDeps) {
  async function fromDevice(userId: string, filter: ExportFilter): Promise<ExportResult> {
    const cache = deps.cacheFor(userId);
    const db = await cache.db();
    if (!db) throw new ApiError(0, 'No trades are saved on this device, so there is nothing to export offline.');
    const csv = await localTradesCsv(db, filter, await readHistoryMeta(cache));
    return {
      blob: new Blob([csv.text], { type: CSV_TYPE }),
      fileName: csv.fileName,
      source: 'device',
      coverage: csv.coverage,
    };
  }

  async function fromServer(filter: ExportFilter): Promise<ExportResult> {
    const { blob, fileName } = await deps.http.download('/trades/export.csv', {
      status: filter.status || undefined,
      symbol: filter.symbol || undefined,
      from: filter.from,
      to: filter.to,
    });
    return { blob, fileName: fileName ?? 'trades.csv', source: 'server' };
  }

  return {
    exportCsv: (userId: string, filter: ExportFilter, online: boolean): Promise<ExportResult> =>
      online ? fromServer(filter) : fromDevice(userId, filter),
  };
}
export type TradesExport = ReturnType<typeof createTradesExport>;
