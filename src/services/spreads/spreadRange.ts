import { catchError, combineLatest, defer, map, of, startWith, type Observable } from 'rxjs';
import type { SpreadsResponse } from '../../../contract/api';
import type { SymbolId } from '../../../contract/domain';
import type { SpreadPoint } from '../../../contract/entities';
import { CACHED_SPREADS_KEEP_MS } from '../../cache/schema';
import type { Http } from '../http';
import { mergeSpreadPoints } from './spreadSeries';

/**
 * A symbol's history over `rangeMs` back from now: within a day, the cached day (`day$`, offline too); beyond it, the
 * server's series for the whole range (read once, at its own resolution) joined with the cached day, which alone
 * answers offline.
 */
export function spreadRange$(http: Http, day$: Observable<SpreadPoint[]>, symbol: SymbolId, rangeMs: number, now: () => number = Date.now): Observable<SpreadPoint[]> {
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
