import { useObservable, useObservableState } from 'observable-hooks';
import { useEffect, useState } from 'react';
import { BehaviorSubject, switchMap } from 'rxjs';
import type { SymbolId } from '../../contract/domain';
import type { OpportunityOutcome, RiskSummary, SpreadPoint, Trade } from '../../contract/entities';
import type { EquityPoint } from '../../contract/figures';
import { cockpitOf } from '../services/cockpit/cockpitServices';
import type { Live } from '../services/streams/liveState';
import type { VenueHealthView } from '../services/venues/venueHealthService';
import { useLive } from './live';
import { useServices } from './services';

// What the cockpit's screens read (Dashboard panels, trade detail, equity curve, spread chart).

const useCockpit = () => cockpitOf(useServices());

export const useOutcomes = (): Live<OpportunityOutcome[]> => useLive(useCockpit().outcomes.outcomes$, []);
export const useRisk = (): Live<RiskSummary | null> => useLive(useCockpit().risk.risk$, null);
export const useEquity = (): EquityPoint[] => useObservableState(useCockpit().equity$, []);
export const useVenueHealth = (): VenueHealthView | null => useObservableState(useCockpit().venueHealth$, null);

/** One trade for its detail screen; a new id switches to its own stream. */
export function useTradeDetail(id: string): Live<Trade | null> {
  const cockpit = useCockpit();
  const trade$ = useObservable((inputs$) => inputs$.pipe(switchMap(([tradeId]) => cockpit.detail(tradeId))), [id]);
  return useObservableState(trade$, { value: null, loading: true, source: 'initial', updatedAt: null, error: null });
}

/**
 * A pair's spread history over a range back from now (the cached day offline); a new pair or range switches streams.
 * While `onScreen` is false (the chart scrolled away) no update is rendered; the latest is when it comes back.
 */
export function useSpreadRange(symbol: SymbolId, rangeMs: number, onScreen = true): SpreadPoint[] {
  const cockpit = useCockpit();
  const [onScreen$] = useState(() => new BehaviorSubject(onScreen));
  useEffect(() => onScreen$.next(onScreen), [onScreen$, onScreen]);
  const points$ = useObservable(
    (inputs$) => inputs$.pipe(switchMap(([s, r]) => cockpit.spreadRange(s, r, onScreen$))),
    [symbol, rangeMs],
  );
  return useObservableState(points$, []);
}
