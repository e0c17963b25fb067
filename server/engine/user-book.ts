// One user as the decisions see them: limits, the exposure their unfinished trades commit, the realised window read
// from the database, the circuit breaker, and the trades they hold. The rules that read a book alone live here as
// pure functions: how large an automated trade is, whether the user may open one now, why not, and why a manual trade
// is refused.
import { withArticle } from '../../contract/article';
import type { OpportunityOutcomeKind, SymbolId, TradeOrigin } from '../../contract/domain';
import { HALTED_MESSAGE as GLOBAL_HALT_MESSAGE } from '../../contract/guard';
import type { EngineStop } from '../../contract/trading-state';
import { activeBlock, newBreaker, type Breaker } from './circuit-breaker';
import type { TradingParams } from './costs';
import { Money, money } from './decimal';
import { maxLossReached, type RealisedWindow } from './drawdown';
import { directionOf, type Direction, type PriceTick } from './prices';
import { checkQuotes } from './quote-check';
import type { NewTrade } from './trade-state';

export interface UserLimits {
  userId: string;
  /** USDT, decimal strings. */
  maxExposure: string;
  maxLoss: string;
  /** Fraction. */
  minSpread: number;
  /** Binance taker fee of the user's account, fraction. */
  takerFee: number;
  /** tradingEnabled: the engine opens trades for this user by itself. */
  autoTrade: boolean;
  /** Trading was turned off by the engine and the user has not enabled it again. */
  stopped: EngineStop | null;
  /** When trading was last enabled (ms): the start of the maxLoss window; null = since the first trade. */
  windowStart: number | null;
  /** The pairs the user trades; null = every pair the server trades. No trade opens on another. */
  symbols: readonly SymbolId[] | null;
}

/** Whether the user picked this pair (or left the choice to the server's list). */
export const tradesPair = (limits: Pick<UserLimits, 'symbols'>, symbol: SymbolId): boolean =>
  limits.symbols === null || limits.symbols.includes(symbol);

export type TrackedStage = 'opening' | 'open' | 'closing';

export interface TrackedTrade {
  id: string;
  tradeId: string;
  userId: string;
  symbol: SymbolId;
  direction: Direction;
  notional: Money;
  /** Spread in the trade's favour at open (positive). */
  openEdge: number;
  stage: TrackedStage;
  deadline: number;
}

export interface UserBook {
  limits: UserLimits;
  maxExposure: Money;
  maxLoss: Money;
  threshold: number;
  committed: Money;
  /** From the database; null until first read, and opening waits while a newer read is pending. */
  realised: RealisedWindow | null;
  realisedSeq: number;
  readsIssued: number;
  readsPending: number;
  breaker: Breaker;
  trades: Map<string, TrackedTrade>;
  bySymbol: Map<SymbolId, string>;
}

export type Refusal = { ok: false; status: 400 | 404 | 409; message: string };

export const REALISED_PENDING = 'Your realised profit and loss is being updated; try again in a moment';

const percent = (fraction: number): string => `${(fraction * 100).toFixed(2)} %`;

export function newBook(limits: UserLimits): UserBook {
  return {
    limits,
    maxExposure: money(0),
    maxLoss: money(0),
    threshold: Infinity,
    committed: money(0),
    realised: null,
    realisedSeq: 0,
    readsIssued: 0,
    readsPending: 0,
    breaker: newBreaker(),
    trades: new Map(),
    bySymbol: new Map(),
  };
}

/** An automated trade's notional: a share of maxExposure (at least the venues' minimum), within what is left. */
export function autoNotional(book: UserBook, params: TradingParams): Money {
  const { minNotional, perTradeExposureFraction } = params;
  const perTrade = Money.max(book.maxExposure.times(perTradeExposureFraction), minNotional);
  return Money.min(perTrade, book.maxExposure.minus(book.committed)).toDecimalPlaces(2, Money.ROUND_DOWN);
}

/** Whether the user may open an automated trade on the symbol now (the spread aside). */
export function canAutoOpen(book: UserBook, symbol: SymbolId, now: number, params: TradingParams): boolean {
  if (!book.limits.autoTrade || book.limits.stopped !== null || !tradesPair(book.limits, symbol)) return false;
  if (book.realised === null || book.readsPending > 0 || maxLossReached(book.realised, book.maxLoss)) return false;
  if (book.bySymbol.has(symbol) || activeBlock(book.breaker, symbol, now)) return false;
  return autoNotional(book, params).gte(params.minNotional);
}

/** Why this user would not open on the symbol at this level; null when they would (or do not trade at all). */
export function whyNot(
  book: UserBook,
  symbol: SymbolId,
  level: number,
  now: number,
  params: TradingParams,
): { outcome: OpportunityOutcomeKind; reason: string } | null {
  const { stopped } = book.limits;
  if (stopped === 'max-loss') return { outcome: 'halted', reason: 'trading is stopped: max loss reached' };
  if (stopped === 'paused') return { outcome: 'paused', reason: 'trading is paused after repeated refusals' };
  if (!book.limits.autoTrade || !tradesPair(book.limits, symbol)) return null;
  const block = activeBlock(book.breaker, symbol, now);
  if (block) return { outcome: block.outcome, reason: block.reason };
  if (book.bySymbol.has(symbol))
    return { outcome: 'exposure_full', reason: `${withArticle(symbol)} trade is already open` };
  if (autoNotional(book, params).lt(params.minNotional)) {
    return {
      outcome: 'exposure_full',
      reason: `open trades use ${book.committed.toFixed()} of your ${book.maxExposure.toFixed()} USDT max exposure`,
    };
  }
  if (book.threshold > level)
    return {
      outcome: 'below_min_spread',
      reason: `the spread of ${percent(level)} is below your threshold of ${percent(book.threshold)}`,
    };
  return null;
}

/**
 * Why a manual trade is refused; null when it may open. The same limits as an automated one (maxLoss, exposure, one
 * trade per symbol, fresh quotes, the back-off after a failure), without the spread threshold: the user asked for it.
 */
export function manualRefusal(
  book: UserBook,
  request: { symbol: SymbolId; notional: Money; tick: PriceTick | undefined },
  context: { now: number; globalHalt: boolean; realisedKnown: boolean; params: TradingParams },
): Refusal | null {
  const { symbol, notional, tick } = request;
  const { now, params } = context;
  const refuse = (status: Refusal['status'], message: string): Refusal => ({ ok: false, status, message });
  if (context.globalHalt) return refuse(409, GLOBAL_HALT_MESSAGE);
  if (book.limits.stopped === 'max-loss' || (book.realised && maxLossReached(book.realised, book.maxLoss))) {
    return refuse(
      409,
      `Trading is stopped: your realised loss reached your max loss (${book.maxLoss.toFixed()} USDT). Save your trading settings to trade again.`,
    );
  }
  if (!context.realisedKnown) return refuse(409, REALISED_PENDING);
  if (!tradesPair(book.limits, symbol))
    return refuse(400, `${symbol} is not among your pairs; add it in your trading settings to trade it`);
  if (notional.lt(params.minNotional))
    return refuse(400, `Amount must be at least ${params.minNotional.toFixed()} USDT`);
  if (book.bySymbol.has(symbol)) return refuse(409, `You already have an open ${symbol} trade; wait until it closes`);
  if (notional.gt(book.maxExposure.minus(book.committed))) {
    return refuse(
      409,
      `This trade would exceed your max exposure of ${book.maxExposure.toFixed()} USDT (open: ${book.committed.toFixed()} USDT)`,
    );
  }
  const block = activeBlock(book.breaker, symbol, now);
  if (block?.outcome === 'backing_off') {
    const seconds = Math.ceil((block.until - now) / 1000);
    return refuse(409, `The engine is backing off ${symbol} after a failed trade; try again in ${seconds} s`);
  }
  if (!tick || tick.spread === null)
    return refuse(409, `No ${symbol} prices from both venues yet; try again in a moment`);
  const quotes = checkQuotes(tick.binance, tick.deriv, now, params);
  if (!quotes.ok)
    return refuse(409, `${symbol} prices cannot be traded right now: ${quotes.reason}; try again in a moment`);
  return null;
}

/**
 * The trade a decision opens for the user on this tick: tracked by the core from now on (its exposure counts at
 * once), and the new trade the executor writes ahead and places, with the quotes it was decided on.
 */
export function decideTrade(
  book: UserBook,
  tick: PriceTick,
  notional: Money,
  origin: TradeOrigin,
  ids: { id: string; tradeId: string },
  now: number,
  maxHoldMs: number,
  /** When the first order must have left (deadline.ts); none for a decision without both quotes. */
  sendBy?: number,
): { tracked: TrackedTrade; trade: NewTrade } {
  const spread = tick.spread as number;
  const direction = directionOf(spread);
  const userId = book.limits.userId;
  const tracked: TrackedTrade = {
    ...ids,
    userId,
    symbol: tick.symbol,
    direction,
    notional,
    openEdge: Math.abs(spread),
    stage: 'opening',
    deadline: now + maxHoldMs,
  };
  const decision =
    tick.binance && tick.deriv
      ? {
          binance: { bid: tick.binance.bid, ask: tick.binance.ask },
          deriv: { bid: tick.deriv.bid, ask: tick.deriv.ask },
          sendBy,
        }
      : undefined;
  const trade: NewTrade = {
    ...ids,
    userId,
    symbol: tick.symbol,
    direction,
    origin,
    notional: notional.toFixed(),
    openSpread: spread,
    createdAt: new Date(now),
    decision,
  };
  return { tracked, trade };
}
