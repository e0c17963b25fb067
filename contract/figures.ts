// The trading figures a user sees, one definition each. The server computes them (server/engine/figures.ts, over the
// per-user figures the database keeps as trades change: server/db/repositories/stats.ts, migration 0006); every screen
// shows them as the server sent them and never computes them again. The rules are data as well as functions; the
// database's statement of them (trade_figures_contribution) is pinned to these by tests/server/api/trade-figures.test.ts.
import { FINISHED_STATUSES, type TradeStatus } from './domain';

type Finished = (typeof FINISHED_STATUSES)[number];

/** A trade's profit is realised, and counts in the figures, once it is finished: completed, failed or cancelled. */
export const isFinished = (status: TradeStatus): status is Finished =>
  (FINISHED_STATUSES as readonly TradeStatus[]).includes(status);

/**
 * Won: finished with a profit above zero, net of every fee. A cancelled trade that closed in profit is a win; a failed
 * trade (one leg refused, the other unwound at once) practically never is.
 */
export const WINNING_TRADE = { statuses: FINISHED_STATUSES, profitAbove: 0 } as const;

/**
 * Decided: finished and moved money, so it is either won or lost. A failed trade whose unwind cost fees is a loss; a
 * trade refused on both legs moved nothing (profit exactly 0) and counts neither way.
 */
export const DECIDED_TRADE = { statuses: FINISHED_STATUSES, profitNot: 0 } as const;

export function isWinningTrade(trade: { status: TradeStatus; actualProfit: number }): boolean {
  return isFinished(trade.status) && trade.actualProfit > WINNING_TRADE.profitAbove;
}

export function isDecidedTrade(trade: { status: TradeStatus; actualProfit: number }): boolean {
  return isFinished(trade.status) && trade.actualProfit !== DECIDED_TRADE.profitNot;
}

/** `winRate`: won trades as a percentage of decided trades; 0 when none is decided. */
export function winRate(winningTrades: number, decidedTrades: number): number {
  return decidedTrades === 0 ? 0 : (winningTrades * 100) / decidedTrades;
}

/** What a screen shows for a win rate while no trade is decided: there is none (a 0.0 % would say every trade lost). */
export const NO_WIN_RATE = '—';

/**
 * The win rate as every screen shows it (Dashboard, Trades, Balances, Backtest): one decimal and '%', or NO_WIN_RATE
 * while `decidedTrades` is 0 (or unknown, from an answer cached by an older version).
 */
export function winRateText(figures: { winRate: number; decidedTrades?: number } | null | undefined): string {
  if (!figures || !(Number(figures.decidedTrades) > 0) || !Number.isFinite(figures.winRate)) return NO_WIN_RATE;
  return `${figures.winRate.toFixed(1)}%`;
}

// What each of the contract's Stats figures is (the Balances answer repeats the same figures):
// - `totalTrades`: every trade of the user, open ones included.
// - `successfulTrades`: won trades (see WINNING_TRADE): "successful" means won, so it is the numerator of the win rate
//   and never counts a time-limit loss or a stop-out.
// - `failedTrades`: trades that failed (a leg could not be placed; the other was unwound).
// - `totalProfit`: the sum of the profits of won trades (see WINNING_TRADE).
// - `netProfit`: the realised P&L of every finished trade — completed, failed and cancelled — net of all fees.
// - `winRate`: won trades / decided trades × 100 (see DECIDED_TRADE), 0 when none.
// - `decidedTrades`: the trades the win rate is taken over; while it is 0 there is no win rate to show.
// - `totalValue`: USDT plus each coin at its current mid price, over both venues.

/** One point of the equity curve: cumulative realised P&L (net of fees) once a trade finished. */
export interface EquityPoint {
  /** When the trade finished, ms since epoch. */
  t: number;
  /** Cumulative realised P&L up to and including this trade, USDT. */
  equity: number;
}

/**
 * The arithmetic a figure is folded in: plain numbers where figures are shown, exact decimals where the server moves
 * money (server/engine/drawdown.ts gives its Money). One definition of each fold below serves both.
 */
export interface Arithmetic<N> {
  zero: N;
  plus(a: N, b: N): N;
  minus(a: N, b: N): N;
  max(a: N, b: N): N;
}

export const NUMBERS: Arithmetic<number> = {
  zero: 0,
  plus: (a, b) => a + b,
  minus: (a, b) => a - b,
  max: (a, b) => Math.max(a, b),
};

/**
 * The equity curve's definition: cumulative realised P&L, the running sum of each finished trade's profit (net of
 * every fee) in the order the trades finished. `steps` must already be in that order.
 */
export function runningEquity<N>(
  n: Arithmetic<N>,
  steps: readonly { t: number; profit: N }[],
): { t: number; equity: N }[] {
  let equity = n.zero;
  return steps.map(({ t, profit }) => ({ t, equity: (equity = n.plus(equity, profit)) }));
}

/** Realised P&L since a start (trading enabled, a backtest's first instant) and the highest it has been (at least 0). */
export interface RealisedWindow<N> {
  current: N;
  peak: N;
}

export const emptyWindow = <N>(n: Arithmetic<N>): RealisedWindow<N> => ({ current: n.zero, peak: n.zero });

/** The window after one more finished trade. */
export function foldRealised<N>(n: Arithmetic<N>, window: RealisedWindow<N>, profit: N): RealisedWindow<N> {
  const current = n.plus(window.current, profit);
  return { current, peak: n.max(window.peak, current) };
}

/**
 * Realised drawdown: how far the realised P&L is below its highest point (0 at a new high). The engine halts a user
 * when this reaches maxLoss over the trades since trading was last enabled.
 */
export const drawdownIn = <N>(n: Arithmetic<N>, window: RealisedWindow<N>): N => n.minus(window.peak, window.current);

/** When a finished trade finished (closedAt, else its last update), ms since epoch; NaN when neither parses. */
export const finishedAt = (trade: { closedAt: string | null; updatedAt: string }): number =>
  Date.parse(trade.closedAt ?? trade.updatedAt);

/**
 * The equity curve: cumulative realised P&L over time, net of every fee — the running sum of `actualProfit` over
 * finished trades (the same trades `netProfit` counts), ordered by when they finished (closedAt, else updatedAt).
 * Its last point equals `netProfit` over the same trades. Open trades are not on it: their result is not realised.
 */
export function equityCurve(
  trades: readonly { status: TradeStatus; actualProfit: number; closedAt: string | null; updatedAt: string }[],
): EquityPoint[] {
  const finished = trades
    .filter((t) => isFinished(t.status))
    .map((t) => ({ t: finishedAt(t), profit: t.actualProfit }))
    .filter((x) => Number.isFinite(x.t))
    .sort((a, b) => a.t - b.t);
  return runningEquity(NUMBERS, finished);
}

/** The realised drawdown (drawdownIn) at the end of an equity curve: its last point below its highest (at least 0). */
export function drawdownOf(curve: readonly EquityPoint[]): number {
  let peak = 0;
  for (const p of curve) peak = Math.max(peak, p.equity);
  return drawdownIn(NUMBERS, { current: curve[curve.length - 1]?.equity ?? 0, peak });
}
