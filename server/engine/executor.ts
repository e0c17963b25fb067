// Runs trades through their state machine against the venues: places what `pendingOrders` asks for, feeds the
// outcomes back, and persists every step before the next order goes out (write-ahead).
import type { SymbolId, VenueId } from '../../contract/domain';
import type { Trade } from '../../contract/entities';
import { VenueError, type LegFill, type Venue, type VenueAccount } from '../venues/types';
import type { TradeStore } from './store';
import {
  applyTradeEvent,
  closeOrderId,
  createTrade,
  isTerminal,
  pendingOrders,
  type NewTrade,
  type PendingOrder,
  type TradeEvent,
  type TradeState,
} from './trade-state';

export interface ExecutorDeps {
  venues: Record<VenueId, Venue>;
  store: TradeStore;
  account(userId: string): Promise<VenueAccount>;
  now(): Date;
  /** Every persisted step, with its wire form: `created` for the write-ahead insert. */
  onPersisted(state: TradeState, trade: Trade, created: boolean): void;
  /** Both legs are open. */
  onOpened(state: TradeState): void;
  /** Terminal: completed, cancelled or failed. */
  onEnded(state: TradeState): void;
  /** Something was filled for this user (balances changed). */
  onFill(userId: string): void;
  onError(error: unknown, state: TradeState): void;
  /** Pause between retries of a close that did not go through. */
  retryDelayMs?: (attempt: number) => number;
  /** Retries of a failed close before the trade is left for the periodic sweep. */
  maxCloseAttempts?: number;
}

interface Run {
  state: TradeState;
  dirty: boolean;
  driving: Promise<void> | null;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class TradeExecutor {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly deps: ExecutorDeps) {}

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

  /** Writes the trade ahead, then opens both legs in parallel. Resolves once the trade row exists. */
  async open(trade: NewTrade): Promise<Trade> {
    const state = createTrade(trade);
    const dto = await this.deps.store.insert(state);
    const run: Run = { state, dirty: false, driving: null };
    this.runs.set(state.tradeId, run);
    this.deps.onPersisted(state, dto, true);
    void this.drive(run);
    return dto;
  }

  /** Continues a trade found unfinished at start (its legs already reconciled with the venues). */
  resume(state: TradeState): void {
    const run: Run = { state, dirty: true, driving: null };
    this.runs.set(state.tradeId, run);
    void this.drive(run);
  }

  requestClose(tradeId: string, reason: string, cancel: boolean): void {
    const run = this.runs.get(tradeId);
    if (!run) return;
    const next = applyTradeEvent(run.state, { type: 'close-requested', reason, cancel }, this.deps.now());
    if (next === run.state) return;
    run.state = next;
    run.dirty = true;
    void this.drive(run);
  }

  /** Drives again every trade that is waiting for an order and not being driven (closes that kept failing). */
  sweep(): void {
    for (const run of this.runs.values()) if (!run.driving && (run.dirty || pendingOrders(run.state).length > 0)) void this.drive(run);
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
    run.driving = this.loop(run).finally(() => {
      run.driving = null;
      if (isTerminal(run.state.stage) && !run.dirty) {
        this.runs.delete(run.state.tradeId);
        this.deps.onEnded(run.state);
      }
    });
    return run.driving;
  }

  private async loop(run: Run): Promise<void> {
    const maxAttempts = this.deps.maxCloseAttempts ?? 5;
    let failedCloseRounds = 0;
    try {
      for (;;) {
        if (run.dirty) await this.persist(run);
        const orders = pendingOrders(run.state);
        if (orders.length === 0) return;
        const before = run.state;
        const events = await Promise.all(orders.map((order) => this.perform(before, order)));
        for (const event of events) run.state = applyTradeEvent(run.state, event, this.deps.now());
        run.dirty = true;
        if (before.stage === 'opening' && run.state.stage !== 'opening' && run.state.legs.every((l) => l.status !== 'failed')) {
          this.deps.onOpened(run.state);
        }
        if (events.some((e) => e.type === 'leg-opened' || e.type === 'leg-closed')) this.deps.onFill(run.state.userId);
        if (events.every((e) => e.type === 'leg-close-failed')) {
          failedCloseRounds += 1;
          await this.persist(run);
          if (failedCloseRounds >= maxAttempts) return; // the periodic sweep tries again later
          await delay(this.deps.retryDelayMs?.(failedCloseRounds) ?? Math.min(500 * 2 ** failedCloseRounds, 10_000));
        }
      }
    } catch (error) {
      // A store failure: the state stays dirty in memory and the sweep persists and continues it.
      this.deps.onError(error, run.state);
    }
  }

  private async persist(run: Run): Promise<void> {
    const state = run.state;
    const dto = await this.deps.store.save(state);
    if (run.state === state) run.dirty = false;
    this.deps.onPersisted(state, dto, false);
  }

  private async perform(state: TradeState, order: PendingOrder): Promise<TradeEvent> {
    const { leg } = order;
    const venue = this.deps.venues[leg.venue];
    let account: VenueAccount;
    try {
      account = await this.deps.account(state.userId);
    } catch (error) {
      const reason = `${leg.venue}: ${messageOf(error)}`;
      return order.kind === 'open' ? { type: 'leg-open-failed', venue: leg.venue, reason } : { type: 'leg-close-failed', venue: leg.venue, reason };
    }
    if (order.kind === 'open') {
      const place = () => venue.openLeg(account, { clientOrderId: leg.clientOrderId, symbol: state.symbol, side: leg.side, notional: state.notional });
      const result = await placeOrQuery(venue, account, state.symbol, leg.clientOrderId, place);
      return result.ok
        ? { type: 'leg-opened', venue: leg.venue, fill: result.fill }
        : { type: 'leg-open-failed', venue: leg.venue, reason: `${leg.venue} leg failed: ${result.reason}` };
    }
    const id = closeOrderId(leg.clientOrderId);
    const place = () =>
      venue.closeLeg(account, { clientOrderId: id, symbol: state.symbol, side: leg.side, quantity: leg.open?.quantity ?? '0', venueOrderId: leg.venueOrderId });
    const result = await placeOrQuery(venue, account, state.symbol, id, place);
    return result.ok
      ? { type: 'leg-closed', venue: leg.venue, fill: result.fill }
      : { type: 'leg-close-failed', venue: leg.venue, reason: `${leg.venue} close failed: ${result.reason}` };
  }
}

type PlaceResult = { ok: true; fill: LegFill } | { ok: false; reason: string };

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
): Promise<PlaceResult> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      return { ok: true, fill: await place() };
    } catch (error) {
      if (!(error instanceof VenueError) || error.kind !== 'unknown-outcome') return { ok: false, reason: messageOf(error) };
      try {
        const found = await venue.findOrder(account, symbol, clientOrderId);
        if (found) return { ok: true, fill: found };
      } catch (queryError) {
        return { ok: false, reason: `outcome unknown and the order could not be queried: ${messageOf(queryError)}` };
      }
      if (attempt === 1) return { ok: false, reason: messageOf(error) };
    }
  }
  return { ok: false, reason: 'unreachable' };
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
