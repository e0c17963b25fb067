import { formatTradeDate } from '../../lib/format';
import type { LocalCoverage } from '../../services/trades/tradesService';

/** The banner: 'Offline — showing data from {time}'. */
export function offlineBannerText(dataFrom: number | null, timeZone: string): string {
  return dataFrom === null
    ? 'Offline — no data saved on this device yet'
    : `Offline — showing data from ${formatTradeDate(dataFrom, timeZone)}`;
}

/** Why an action that only the server can carry out is disabled while offline (it would only be refused). */
export function needsServerText(action: string): string {
  return `Offline: ${action} needs the server. Open trades still close on the server as usual.`;
}

/** Under the Trades table while offline: how far back the local copy reaches. */
export function coverageText(c: LocalCoverage | null, timeZone: string): string {
  if (!c || c.count === 0 || c.oldest === null) return 'No trades are saved on this device yet.';
  const n = c.count.toLocaleString('en-US');
  return c.complete
    ? `Offline copy: all ${n} of your trades, back to ${formatTradeDate(c.oldest, timeZone)}.`
    : `Offline copy: your ${n} most recent trades, back to ${formatTradeDate(c.oldest, timeZone)}.`;
}
