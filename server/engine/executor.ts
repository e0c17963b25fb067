// Runs trades through their state machine against the venues: places what `pendingOrders` asks for, feeds the
// outcomes back, and persists every step before the next order goes out (write-ahead). A venue without client order
// ids (Deriv) writes down each attempt before it is sent and its id as soon as it answers, through the order journal.
import { VENUE_NAMES, type SymbolId, type VenueId } from '../../contract/domain';
import type { Trade } from '../../contract/entities';
import {
  VenueError,
  type KnownOrder,
  type LegFill,
  type LegOrder,
  type OrderNote,
  type Venue,
  type VenueAccount,
} from '../venues/types';
import { ENGINE_BUSY, inTime } from './deadline';
import { TradeGoneError, type EngineLogger, type TradeStore } from './ports';
import {
  applyTradeEvent,
  closeOrderId,
  createTrade,
  isTerminal,
  nothingSent,
  pendingOrders,
  type NewTrade,
  type PendingOrder,
  type TradeEvent,
  type TradeState,
} from './trade-state';
import { VenueLanes, type LaneLimits } from './venue-lanes';

export interface ExecutorDeps {
  venues: Record<VenueId, Venue>;
  store: TradeStore;
  account(userId: string): Promise<VenueAccount>;
  now(): Date;
  logger(): EngineLogger;
  /** Price protection of opening orders: how far a fill may be from the decision's quote. */
  maxSlippage: number;
  /** Every persisted step, with its wire form: `created` for the write-ahead insert. */
  onPersisted(state: TradeState, trade: Trade, created: boolean): void;
  /** Both legs are open. */
  onOpened(state: TradeState): void;
  /** Terminal: completed, cancelled or failed. */
  onEnded(state: TradeState): void;
  /** The trade's row is gone (its user was deleted): the trade is dropped, never retried. */
  onGone(state: TradeState): void;
  /** Something was filled for this user (balances changed); called once the fill is saved. */
  onFill(userId: string): void;
  onError(error: unknown, state: TradeState): void;
  /** Pause between retries of a close that did not go through. */
  retryDelayMs?: (attempt: number) => number;
  /** Retries of a failed close before the trade is left for the periodic sweep. */
  maxCloseAttempts?: number;
  /** Orders on their way at once, per venue and per venue account (venue-lanes.ts). */
  lanes?: LaneLimits;
}

interface Run {
  state: TradeState;
  dirty: boolean;
  driving: Promise<void> | null;
  /** Saves of this trade, one after another, each writing the state as it is when its turn comes. */
  saving: Promise<void>;
  gone: boolean;
  /** The account read by the trade's pre-trade checks, used for its first orders instead of a second read. */
  account?: VenueAccount;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The user's venue account as read for one round of orders, or why it could not be read. */
type AccountRead = { found: VenueAccount } | { error: unknown };
export class TradeExecutor {
  private readonly runs = new Map<string, Run>();
  private readonly lanes: VenueLanes;

  constructor(private readonly deps: ExecutorDeps) {
    this.lanes = new VenueLanes(deps.lanes);
  }

  /** Trades not yet terminal, by trade id. */
  get active(): ReadonlyMap<string, Run> {
    return this.runs;
  }

  stateOf(tradeId: string): TradeState | undefined {
    return this.runs.get(tradeId)?.state;
  }

  findById(id: string): TradeState | undefined {
    for (const run of this.runs.values()) if (run.state.id === id) return run.state;
    return undefined;
  }

  /**
   * Writes the trade ahead, then opens both legs in parallel. Resolves once the trade row exists. `account`: the
   * user's account as just read for the pre-trade checks; the opening orders use it rather than reading it again.
   */
  async open(trade: NewTrade, account?: VenueAccount): Promise<Trade> {
    const state = createTrade(trade);
    const dto = await this.deps.store.insert(state);
    const run: Run = { state, dirty: false, driving: null, saving: Promise.resolve(), gone: false };
    if (account) run.account = account;
    this.runs.set(state.tradeId, run);
    this.deps.onPersisted(state, dto, true);
    void this.drive(run);
    return dto;
  }

  /** Continues a trade found unfinished at start (its legs already reconciled with the venues). */
  resume(state: TradeState): void {
    const run: Run = { state, dirty: true, driving: null, saving: Promise.resolve(), gone: false };
    this.runs.set(state.tradeId, run);
    void this.drive(run);
  }

  requestClose(tradeId: string, reason: string): void {
    this.apply(tradeId, { type: 'close-requested', reason });
  }

  /** The venue closed a leg by itself (a stop-out): recorded, and the other leg is closed at once. */
  venueClosed(tradeId: string, venue: VenueId, fill: LegFill, reason: string): void {
    this.apply(tradeId, { type: 'leg-closed-by-venue', venue, fill, reason });
  }

  private apply(tradeId: string, event: TradeEvent): void {
    const run = this.runs.get(tradeId);
    if (!run) return;
    const next = applyTradeEvent(run.state, event, this.deps.now());
    if (next === run.state) return;
    run.state = next;
    run.dirty = true;
    void this.drive(run);
  }

  /** Drives again every trade that is waiting for an order and not being driven (closes that kept failing). */
  sweep(): void {
    for (const run of this.runs.values())
      if (!run.driving && (run.dirty || pendingOrders(run.state).length > 0)) void this.drive(run);
  }

  /** Waits for every trade in flight to finish its current round (shutdown, tests). */
  async idle(): Promise<void> {
    for (;;) {
      const driving = [...this.runs.values()].map((r) => r.driving).filter((p): p is Promise<void> => p !== null);
      if (driving.length === 0) return;
      await Promise.allSettled(driving);
    }
  }

  private drive(run: Run): Promise<void> {
    if (run.driving) return run.driving;
    run.driving = this.loop(run).then((settled) => {
      run.driving = null;
      if (run.gone) return;
      if (isTerminal(run.state.stage) && !run.dirty) {
        this.runs.delete(run.state.tradeId);
        this.deps.onEnded(run.state);
      } else if (settled && (run.dirty || pendingOrders(run.state).length > 0)) {
        // Something arrived while the last round was finishing (a close request, a stop-out): go on at once.
        void this.drive(run);
      }
    });
    return run.driving;
  }

  /** One drive of a trade; false when it stopped on a store failure (the sweep picks it up again). */
  private async loop(run: Run): Promise<boolean> {
    const maxAttempts = this.deps.maxCloseAttempts ?? 5;
    let failedCloseRounds = 0;
    try {
      for (;;) {
        if (run.dirty) await this.persist(run);
        const orders = pendingOrders(run.state);
        if (orders.length === 0) return true;
        const before = run.state;
        const events = await this.send(run, orders);
        if (!events) {
          // Too late for the decision's quotes: dropped before any order (saved, then ended by drive()).
          await this.persist(run);
          return true;
        }
        for (const event of events) run.state = applyTradeEvent(run.state, event, this.deps.now());
        run.dirty = true;
        this.logStep(before, run.state, events);
        if (
          before.stage === 'opening' &&
          run.state.stage !== 'opening' &&
          run.state.legs.every((l) => l.status !== 'failed')
        ) {
          this.deps.onOpened(run.state);
        }
        if (events.some((e) => e.type === 'leg-opened' || e.type === 'leg-closed')) {
          // Saved before the figures are refreshed: balances and stats are read from what the database holds.
          await this.persist(run);
          this.deps.onFill(run.state.userId);
        }
        if (events.every((e) => e.type === 'leg-close-failed')) {
          failedCloseRounds += 1;
          await this.persist(run);
          if (failedCloseRounds >= maxAttempts) return false; // the periodic sweep tries again later
          await delay(this.deps.retryDelayMs?.(failedCloseRounds) ?? Math.min(500 * 2 ** failedCloseRounds, 10_000));
        }
      }
    } catch (error) {
      if (error instanceof TradeGoneError) {
        run.gone = true;
        this.runs.delete(run.state.tradeId);
        this.deps.onGone(run.state);
        return false;
      }
      // A store failure: the state stays dirty in memory and the sweep persists and continues it.
      this.deps.onError(error, run.state);
      return false;
    }
  }

  /**
   * Sends one round of orders once their venues have a free slot. The first round of an opening trade is checked
   * against the decision's deadline at that moment: too late, nothing is sent (null) and the trade ends cancelled.
   */
  private async send(run: Run, orders: PendingOrder[]): Promise<TradeEvent[] | null> {
    const release = await this.lanes.acquire(
      orders.map((o) => o.leg.venue),
      run.state.userId,
    );
    try {
      // The account is read before the deadline is checked, so nothing is awaited between the check and the orders.
      // The first round takes the one the pre-trade checks read a moment ago (credentials read once per trade); later
      // rounds (closes, retries) read it again, so keys changed since are used.
      const carried = run.account;
      delete run.account;
      const account = await (carried ? Promise.resolve(carried) : this.deps.account(run.state.userId)).then(
        (found): AccountRead => ({ found }),
        (error: unknown): AccountRead => ({ error }),
      );
      const now = this.deps.now();
      if (nothingSent(run.state) && !inTime(run.state.decision?.sendBy, now.getTime())) {
        run.state = applyTradeEvent(run.state, { type: 'not-sent', reason: ENGINE_BUSY }, now);
        run.dirty = true;
        return null;
      }
      return await Promise.all(orders.map((order) => this.perform(run, order, account)));
    } finally {
      release();
    }
  }

  private persist(run: Run): Promise<void> {
    const turn = run.saving.then(async () => {
      const state = run.state;
      const dto = await this.deps.store.save(state);
      if (run.state === state) run.dirty = false;
      this.deps.onPersisted(state, dto, false);
    });
    run.saving = turn.catch(() => undefined);
    return turn;
  }

  /** One log line for each refused order and each unwind (DESIGN.md: every refusal leaves a trace). */
  private logStep(before: TradeState, after: TradeState, events: TradeEvent[]): void {
    const log = this.deps.logger();
    const ids = { tradeId: after.tradeId, userId: after.userId, symbol: after.symbol };
    for (const event of events) {
      if (event.type === 'leg-open-failed')
        log.warn({ event: 'order_refused', ...ids, venue: event.venue, reason: event.reason }, 'order refused');
      if (event.type === 'leg-close-failed')
        log.warn(
          { event: 'close_refused', ...ids, venue: event.venue, reason: event.reason },
          'close refused; will retry',
        );
    }
    if (before.stage !== 'unwinding' && after.stage === 'unwinding') {
      const unwinding = after.legs.filter((l) => l.status === 'closing').map((l) => l.venue);
      log.warn({ event: 'unwind', ...ids, venues: unwinding, reason: after.reason }, 'unwinding the filled leg');
    }
  }

  private async perform(run: Run, order: PendingOrder, read: AccountRead): Promise<TradeEvent> {
    const state = run.state;
    const { leg } = order;
    const venue = this.deps.venues[leg.venue];
    if (!('found' in read)) {
      const reason = refusalReason(leg.venue, leg.side, state.symbol, read.error);
      return order.kind === 'open'
        ? { type: 'leg-open-failed', venue: leg.venue, reason }
        : { type: 'leg-close-failed', venue: leg.venue, reason };
    }
    const account = read.found;
    const known = (role: 'open' | 'close') => (): KnownOrder => {
      const current = run.state.legs.find((l) => l.venue === leg.venue);
      return { venueOrderId: current?.venueOrderId ?? null, placement: current?.placement ?? null, role };
    };
    if (order.kind === 'open') {
      const legOrder: LegOrder = {
        clientOrderId: leg.clientOrderId,
        symbol: state.symbol,
        side: leg.side,
        notional: state.notional,
        protection: protectionOf(state, leg.venue, leg.side, this.deps.maxSlippage),
        journal: (note) => this.note(run, leg.venue, note),
      };
      const result = await placeOrQuery(
        venue,
        account,
        state.symbol,
        leg.clientOrderId,
        () => venue.openLeg(account, legOrder),
        known('open'),
      );
      return result.ok
        ? { type: 'leg-opened', venue: leg.venue, fill: result.fill }
        : {
            type: 'leg-open-failed',
            venue: leg.venue,
            reason: refusalReason(leg.venue, leg.side, state.symbol, result.error),
          };
    }
    const id = closeOrderId(leg.clientOrderId);
    const place = () =>
      venue.closeLeg(account, {
        clientOrderId: id,
        symbol: state.symbol,
        side: leg.side,
        quantity: leg.open?.quantity ?? '0',
        venueOrderId: leg.venueOrderId,
      });
    const result = await placeOrQuery(venue, account, state.symbol, id, place, known('close'));
    return result.ok
      ? { type: 'leg-closed', venue: leg.venue, fill: result.fill }
      : { type: 'leg-close-failed', venue: leg.venue, reason: `${leg.venue} close failed: ${messageOf(result.error)}` };
  }

  /** A connector's write-ahead note: applied to the trade and saved before the connector goes on. */
  private async note(run: Run, venue: VenueId, note: OrderNote): Promise<void> {
    const next = applyTradeEvent(run.state, { type: 'leg-noted', venue, note }, this.deps.now());
    if (next === run.state) return;
    run.state = next;
    run.dirty = true;
    await this.persist(run);
  }
}

/** The decision's quote for a leg's side, with the allowed slippage; none for a trade decided without quotes. */
function protectionOf(
  state: TradeState,
  venue: VenueId,
  side: 'buy' | 'sell',
  maxSlippage: number,
): LegOrder['protection'] {
  const quote = state.decision?.[venue];
  if (!quote) return undefined;
  return { price: String(side === 'buy' ? quote.ask : quote.bid), maxSlippage };
}

/** A venue's refusal in the trader's words, e.g. 'Binance refused the order — insufficient USDT'. */
export function refusalReason(venue: VenueId, side: 'buy' | 'sell', symbol: SymbolId, error: unknown): string {
  const name = VENUE_NAMES[venue];
  const message = messageOf(error);
  if (!(error instanceof VenueError)) return `${name} order failed — ${message}`;
  switch (error.kind) {
    case 'insufficient-balance': {
      const currency = venue === 'deriv' ? 'funds' : side === 'buy' ? 'USDT' : symbol.split('/')[0];
      return `${name} refused the order — insufficient ${currency}`;
    }
    case 'auth':
      return `${name} refused the credentials — ${message}`;
    case 'rate-limit':
      return `${name} is limiting requests — ${message}`;
    case 'unavailable':
    case 'unknown-outcome':
      return `${name} could not take the order — ${message}`;
    case 'rejected':
      return `${name} refused the order — ${message}`;
  }
}

type PlaceResult = { ok: true; fill: LegFill } | { ok: false; error: unknown };

/**
 * Places an order; when the outcome is unknown (5xx, dropped connection) asks the venue before deciding, and
 * when the venue has no record retries once with the same client order id, which the venue executes at most once.
 */
export async function placeOrQuery(
  venue: Venue,
  account: VenueAccount,
  symbol: SymbolId,
  clientOrderId: string,
  place: () => Promise<LegFill>,
  known: () => KnownOrder = () => ({ venueOrderId: null, placement: null }),
): Promise<PlaceResult> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      return { ok: true, fill: await place() };
    } catch (error) {
      if (!(error instanceof VenueError) || error.kind !== 'unknown-outcome') return { ok: false, error };
      try {
        const found = await venue.findOrder(account, symbol, clientOrderId, known());
        if (found) return { ok: true, fill: found };
      } catch (queryError) {
        return {
          ok: false,
          error: new VenueError(
            venue.id,
            'unknown-outcome',
            `outcome unknown and the order could not be queried: ${messageOf(queryError)}`,
          ),
        };
      }
      if (attempt === 1) return { ok: false, error };
    }
  }
  return { ok: false, error: new Error('unreachable') };
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
