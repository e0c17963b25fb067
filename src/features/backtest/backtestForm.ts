// The Backtest tab's form: the range picked, the limits as typed (min spread in percent, as the settings form shows
// it) and the request they make. Pure, so the conversions are tested without a screen.
import {
  BACKTEST_RANGES,
  type BacktestBody,
  type BacktestRange,
  type BacktestResult,
  type BacktestSymbol,
} from '../../../contract/backtest';
import { TRADING_DEFAULTS } from '../../../contract/domain';
import type { PublicUser } from '../../../contract/entities';
import { fractionOf, percentOf } from '../../../contract/percent';

export interface BacktestForm {
  range: BacktestRange;
  symbol: BacktestSymbol;
  maxExposure: string;
  minSpreadPercent: string;
  maxLoss: string;
}

export const RANGE_LABELS: Record<BacktestRange, string> = { hour: 'Last hour', day: 'Last day', week: 'Last week' };

/** Prefilled with the user's current limits. */
export function formFromUser(user: PublicUser): BacktestForm {
  return {
    range: 'day',
    symbol: 'both',
    maxExposure: String(user.maxExposure ?? TRADING_DEFAULTS.maxExposure),
    minSpreadPercent: String(percentOf(user.minSpread ?? TRADING_DEFAULTS.minSpread)),
    maxLoss: String(user.maxLoss ?? TRADING_DEFAULTS.maxLoss),
  };
}

export interface Limits {
  minSpread: number;
  maxExposure: number;
  maxLoss: number;
}

export function limitsOf(form: Pick<BacktestForm, 'maxExposure' | 'minSpreadPercent' | 'maxLoss'>): Limits {
  return {
    maxExposure: Number(form.maxExposure),
    minSpread: fractionOf(Number(form.minSpreadPercent)),
    maxLoss: Number(form.maxLoss),
  };
}

export function currentLimits(user: PublicUser): Limits {
  return limitsOf(formFromUser(user));
}

export const sameLimits = (a: Limits, b: Limits): boolean =>
  a.maxExposure === b.maxExposure && a.minSpread === b.minSpread && a.maxLoss === b.maxLoss;

/** The request for the range ending now. */
export function bodyOf(form: BacktestForm, limits: Limits, now: number): BacktestBody {
  return {
    symbol: form.symbol,
    from: new Date(now - BACKTEST_RANGES[form.range]).toISOString(),
    to: new Date(now).toISOString(),
    ...limits,
  };
}

/**
 * Whether a backtest replayed any prices at all: over a range when nothing was recorded it has no trades and a curve
 * that is a flat $0 — which would read as "these limits make nothing", not as "there was nothing to test on".
 */
export const replayedAnything = ({ bookTicks, secondSamples, minuteSamples }: BacktestResult['replayed']): boolean =>
  bookTicks + secondSamples + minuteSamples > 0;
