// Backtest ("what would my limits have done?"): the request, its bounds and the answer, one definition for both sides.
import type { SymbolId } from './domain';
import type { EquityPoint } from './figures';

/** Every pair the server trades ('both' on the wire, as when there were two), or one of them. */
export const BACKTEST_ALL_PAIRS = 'both';
export type BacktestSymbol = SymbolId | typeof BACKTEST_ALL_PAIRS;

/** The longest range one backtest replays. */
export const BACKTEST_MAX_DAYS = 7;
export const BACKTEST_MAX_RANGE_MS = BACKTEST_MAX_DAYS * 24 * 3600 * 1000;
/** A replay that runs longer than this is stopped and the request answered with a message. */
export const BACKTEST_TIMEOUT_MS = 10_000;
/**
 * The most recorded engine ticks one backtest replays: more would not finish within the time limit and would hold
 * the server's memory while read (a demonstration market near its thresholds most of the time records a few million
 * a week).
 */
export const BACKTEST_MAX_TICKS = 1_500_000;
/** The equity series carries at most this many points, whatever the range. */
export const BACKTEST_EQUITY_POINTS = 400;
/** The ranges the screen offers. */
export const BACKTEST_RANGES = { hour: 3600_000, day: 24 * 3600_000, week: 7 * 24 * 3600_000 } as const;
export type BacktestRange = keyof typeof BACKTEST_RANGES;

/** The request (validated by BacktestBody in ./backtest-body.ts, which the client does not load: it carries zod). */
export interface BacktestBody {
  symbol: BacktestSymbol;
  /** ISO 8601. */
  from: string;
  to: string;
  /** Fraction, 0 to 0.1. */
  minSpread: number;
  /** USDT. */
  maxExposure: number;
  maxLoss: number;
}

/**
 * Where a backtest's prices came from: the books the engine decided on (both venues' bid and ask at its own ticks),
 * or, for ranges recorded before those were kept, mids rebuilt into books with each venue's usual quoted spread.
 */
export const BACKTEST_SOURCES = ['books', 'mids', 'books-and-mids'] as const;
export type BacktestSource = (typeof BACKTEST_SOURCES)[number];

export interface BacktestFigures {
  /** Finished trades (completed, failed, cancelled). */
  trades: number;
  /** contract/figures.ts: won / decided × 100 (0 when none is decided: screens show winRateText). */
  winRate: number;
  /** Won and decided trades, as in Stats (successfulTrades, decidedTrades); absent from an older cached answer. */
  wonTrades?: number;
  decidedTrades?: number;
  /** contract/figures.ts `netProfit`: realised P&L of every finished trade, net of fees, USDT. */
  netProfit: number;
  /** Largest fall of the realised P&L below its running peak (the measure maxLoss limits), USDT. */
  maxDrawdown: number;
  /** The most notional committed at once, USDT, beside the maxExposure it was allowed. */
  exposureUsed: number;
}

/** A point of a backtest's equity curve (contract/figures.ts): realised P&L since the start of the range, USDT. */
export type BacktestEquityPoint = EquityPoint;

export interface BacktestResult {
  symbol: BacktestSymbol;
  from: string;
  to: string;
  limits: { minSpread: number; maxExposure: number; maxLoss: number };
  figures: BacktestFigures;
  /**
   * What was replayed: the engine's recorded ticks (`bookTicks`), and before the first of them, mids at each
   * resolution (one second for the last day, one minute before it).
   */
  replayed: {
    source: BacktestSource;
    bookTicks: number;
    secondSamples: number;
    minuteSamples: number;
    symbols: SymbolId[];
  };
  /** Why the engine would have stopped trading part-way (maxLoss, repeated failures), and when. */
  stopped: { reason: string; at: string } | null;
  /** Trades still open when the range ended (not in the figures). */
  openAtEnd: number;
  /** Oldest first, at most BACKTEST_EQUITY_POINTS. */
  equity: BacktestEquityPoint[];
}

export interface BacktestResponse {
  success: true;
  backtest: BacktestResult;
}
