import { catchError, combineLatest, defer, filter, map, of, scan, startWith, type Observable } from 'rxjs';
import type { SpreadsResponse } from '../../../contract/api';
import type { SymbolId } from '../../../contract/domain';
import type { SpreadPoint, SymbolPrice } from '../../../contract/entities';
import { spreadSampleOf } from '../../../contract/spreads';
import { CACHED_SPREADS_KEEP_MS } from '../../cache/schema';
import type { Http } from '../http';
import { mergeSpreadPoints } from './spreadSeries';

/**
 * The cached series with each live price folded in at once, as its second's sample (the cache itself takes the
 * samples in batches every few seconds): a chart moves with every priceUpdate. A later price of the same second
 * replaces the earlier one, as the recorder keeps the last of each second.
 */
export function withLivePrices(
  series$: Observable<SpreadPoint[]>,
  prices$: Observable<SymbolPrice>,
  symbol: SymbolId,
  fromMs: () => number,
): Observable<SpreadPoint[]> {
  const live$ = prices$.pipe(
    filter((p) => p.symbol === symbol),
    map(spreadSampleOf),
    filter((s): s is NonNullable<typeof s> => s !== null),
    map(({ symbol: _symbol, ...point }): SpreadPoint => point),
    scan((points: SpreadPoint[], p: SpreadPoint) => mergeSpreadPoints(points, [p], fromMs()), []),
    startWith([] as SpreadPoint[]),
  );
  // Only what the series does not hold yet is added: the fast append path of mergeSpreadPoints, no sort of a day.
  return combineLatest([series$, live$]).pipe(
    map(([series, live]) => {
      const last = series[series.length - 1]?.t ?? -Infinity;
      return mergeSpreadPoints(
        series,
        live.filter((p) => p.t > last),
        fromMs(),
      );
    }),
  );
}

/**
 * A symbol's history over `rangeMs` back from now: within a day, the cached day (`day$`, offline too); beyond it, the
 * server's series for the whole range (read once, at its own resolution) joined with the cached day, which alone
 * answers offline.
 */
export function spreadRange$(
  http: Http,
  day$: Observable<SpreadPoint[]>,
  symbol: SymbolId,
  rangeMs: number,
  now: () => number = Date.now,
): Observable<SpreadPoint[]> {
  if (rangeMs <= CACHED_SPREADS_KEEP_MS) return day$;
  const older$ = defer(async () => {
    const toMs = now();
    const query = { symbol, from: new Date(toMs - rangeMs).toISOString(), to: new Date(toMs).toISOString() };
    return (await http.get<SpreadsResponse>('/exchanges/spreads', query)).series.points;
  }).pipe(
    catchError(() => of([] as SpreadPoint[])),
    startWith([] as SpreadPoint[]),
  );
  // The server's coarse points stop where the cached day starts, so the two never interleave.
  return combineLatest([older$, day$]).pipe(
    map(([older, day]) => {
      const dayStart = day[0]?.t ?? Infinity;
      return mergeSpreadPoints(
        older.filter((p) => p.t < dayStart),
        day,
        now() - rangeMs,
      );
    }),
  );
}
