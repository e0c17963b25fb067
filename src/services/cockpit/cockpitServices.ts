import {
  combineLatest,
  connect,
  map,
  merge,
  of,
  skip,
  skipWhile,
  takeWhile,
  type MonoTypeOperatorFunction,
  type Observable,
} from 'rxjs';
import type { SymbolId } from '../../../contract/domain';
import type { SpreadPoint, Trade } from '../../../contract/entities';
import type { EquityPoint } from '../../../contract/figures';
import type { AppServices } from '../appServices';
import { createOutcomesService, type OutcomesService } from '../outcomes/outcomesService';
import { createRiskService, riskSettingChanges, type RiskService } from '../risk/riskService';
import { spreadRange$, withLivePrices } from '../spreads/spreadRange';
import { eventsOf } from '../streams/domainDeps';
import { defaultFrameScheduler, documentVisible$, perShownFrame } from '../streams/frames';
import { SERVER_EVENTS } from '../../../contract/events';
import type { Live } from '../streams/liveState';
import { equity$, tradeDetail } from '../trades/tradeDetail';
import { createVenueHealthService, type VenueHealthView } from '../venues/venueHealthService';

// The cockpit's services: built from the app's services on the first screen that uses them (the app layout keeps the
// opportunity outcomes warm), so none of this code is part of /login's first load.

export interface CockpitServices {
  /** What the engine did with each opportunity for this user, the recent ones kept (offline too). */
  outcomes: OutcomesService;
  /** The engine's reading of the user's risk: state, drawdown against maxLoss, exposure against maxExposure. */
  risk: RiskService;
  /** One trade with its legs (trade detail), from the local copy first. */
  detail(id: string): Observable<Live<Trade | null>>;
  /** Cumulative realised P&L over the trades the app holds, oldest first (offline too). */
  equity$: Observable<EquityPoint[]>;
  /**
   * A pair's spread history over a range back from now, moving with every live price: at most once an animation
   * frame, and only while the page is visible and `onScreen$` (the chart's place on screen) says it is seen.
   */
  spreadRange(symbol: SymbolId, rangeMs: number, onScreen$?: Observable<boolean>): Observable<SpreadPoint[]>;
  /** Each venue's connection as the server measures it; last known (ages counting) while this device is offline. */
  venueHealth$: Observable<VenueHealthView>;
}

const built = new WeakMap<AppServices, CockpitServices>();

const bothTrue = (a$: Observable<boolean>, b$: Observable<boolean>): Observable<boolean> =>
  combineLatest([a$, b$]).pipe(map(([a, b]) => a && b));

/** The cockpit services of this app, built once. */
export function cockpitOf(app: AppServices): CockpitServices {
  let c = built.get(app);
  if (!c) {
    const { domain } = app;
    const frames = defaultFrameScheduler();
    c = {
      outcomes: createOutcomesService(domain),
      // Saving the trading settings (maxLoss, maxExposure, trading on or off) changes the figures too.
      risk: createRiskService({ ...domain, changed$: riskSettingChanges(app.authStreams.user$) }),
      detail: (id) => tradeDetail(domain, id),
      equity$: equity$(domain, app.trades.recent$),
      spreadRange: (symbol, rangeMs, onScreen$ = of(true)) =>
        withLivePrices(
          spreadRange$(domain.http, app.spreads.history$(symbol), symbol, rangeMs),
          eventsOf(domain.events$, SERVER_EVENTS.priceUpdate),
          symbol,
          () => Date.now() - rangeMs,
        ).pipe(untilFirstHistory(perShownFrame(frames, bothTrue(documentVisible$(), onScreen$)))),
      venueHealth$: createVenueHealthService({
        ...domain,
        reachable$: app.offline.status$.pipe(map((s) => !s.offline)),
      }).health$,
    };
    built.set(app, c);
  }
  return c;
}

/**
 * Passes every value up to the first history that holds points, then applies `gate` to the rest: a chart scrolled off
 * screen still says what the range holds (its summary is read by screen readers, and a reload shows the cached
 * history at once), and only the live moves after that wait until it is seen.
 */
export function untilFirstHistory(
  gate: MonoTypeOperatorFunction<SpreadPoint[]>,
): MonoTypeOperatorFunction<SpreadPoint[]> {
  return (source) =>
    source.pipe(
      connect((shared) =>
        merge(
          shared.pipe(takeWhile((points) => points.length === 0, true)),
          shared.pipe(
            skipWhile((points) => points.length === 0),
            skip(1),
            gate,
          ),
        ),
      ),
    );
}
