// Pre-trade checks (DESIGN.md section 6): whether a trade can be placed at all, from the venues' own figures — their
// limits, fees and the account's balances — before anything is written or sent. A trade that cannot be placed is
// never opened. Pure: the caller reads the figures (server/engine/venue-figures.ts) and the replay can feed its own.
import type { Currency, SymbolId } from '../../contract/domain';
import { baseOf } from '../../contract/pairs';
import type { TradeRules } from '../venues/types';
import { Money, money } from './decimal';
import type { Direction } from './prices';

export interface VenueFigures {
  rules: TradeRules;
  balances: Record<Currency, string>;
}

export interface PreTradeOrder {
  symbol: SymbolId;
  direction: Direction;
  /** USDT. */
  notional: Money;
  /** The decision's Binance price for the side it trades (ask to buy, bid to sell). */
  binancePrice: number;
}

export type PreTradeResult =
  | { ok: true }
  /** `mirror`: the binance-rich case lacked coin to sell; it is skipped for the user, not counted as a failure. */
  | { ok: false; reason: string; mirror: boolean };

const coinOf = (symbol: SymbolId): Currency => baseOf(symbol);
/** What an account holds of a currency; none when the venue did not list it. */
const heldOf = (balances: Record<Currency, string>, currency: Currency): Money => money(balances[currency] ?? 0);
const refuse = (reason: string, mirror = false): PreTradeResult => ({ ok: false, reason, mirror });
const usd = (value: Money): string => value.toFixed(2);

/** Quantity of a notional at a price, rounded down to the venue's step (8 decimals when it states none). */
export function quantityFor(notional: Money, price: number, stepSize: string | null): Money {
  const raw = notional.dividedBy(price);
  if (!stepSize || money(stepSize).lte(0)) return raw.toDecimalPlaces(8, Money.ROUND_DOWN);
  const step = money(stepSize);
  return raw.dividedToIntegerBy(step).times(step);
}

/** Deriv stake for a notional at the venue's multiplier, in cents, rounded down. */
export const stakeFor = (notional: Money, multiplier: number): Money =>
  notional.dividedBy(multiplier).toDecimalPlaces(2, Money.ROUND_DOWN);

export function checkBinance(order: PreTradeOrder, figures: VenueFigures): PreTradeResult {
  const { rules, balances } = figures;
  const { notional } = order;
  if (rules.minNotional !== null && notional.lt(rules.minNotional)) {
    return refuse(`Binance's minimum order is ${rules.minNotional} USDT; this trade is ${usd(notional)} USDT`);
  }
  if (rules.maxNotional !== null && notional.gt(rules.maxNotional)) {
    return refuse(`Binance's largest order is ${rules.maxNotional} USDT; this trade is ${usd(notional)} USDT`);
  }
  const coin = coinOf(order.symbol);
  const quantity = quantityFor(notional, order.binancePrice, rules.stepSize);
  if (quantity.lte(0) || (rules.minQuantity !== null && quantity.lt(rules.minQuantity))) {
    return refuse(
      `${quantity.toFixed()} ${coin} is below Binance's minimum quantity of ${rules.minQuantity ?? 'one step'}`,
    );
  }
  if (order.direction === 'deriv-rich') {
    const needed = notional.times(money(1).plus(rules.feeRate));
    const held = heldOf(balances, 'USDT');
    if (held.lt(needed))
      return refuse(`not enough USDT on Binance: ${usd(needed)} needed with fees, ${usd(held)} held`);
  } else {
    const held = heldOf(balances, coin);
    if (held.lt(quantity))
      return refuse(
        `not enough ${coin} on Binance for the mirror sell: ${quantity.toFixed()} needed, ${held.toFixed()} held`,
        true,
      );
  }
  return { ok: true };
}

export function checkDeriv(order: PreTradeOrder, figures: VenueFigures): PreTradeResult {
  const { rules, balances } = figures;
  if (rules.multiplier === null) return refuse('Deriv offers no multiplier for this symbol');
  const stake = stakeFor(order.notional, rules.multiplier);
  const at = `(notional ${usd(order.notional)} at ×${rules.multiplier})`;
  if (rules.minStake !== null && stake.lt(rules.minStake))
    return refuse(`Deriv stake ${usd(stake)} ${rules.currency} is below its minimum of ${rules.minStake} ${at}`);
  if (rules.maxStake !== null && stake.gt(rules.maxStake))
    return refuse(`Deriv stake ${usd(stake)} ${rules.currency} is above its maximum of ${rules.maxStake} ${at}`);
  const needed = stake.plus(order.notional.times(rules.feeRate));
  const held = heldOf(balances, 'USDT');
  if (held.lt(needed))
    return refuse(`not enough ${rules.currency} on Deriv: ${usd(needed)} needed with commission, ${usd(held)} held`);
  return { ok: true };
}

/**
 * The largest notional, up to the order's, that both legs can fund now — Binance's USDT with its fee (or, for the
 * mirror, the coin held), Deriv's stake with its commission — within the largest order and stake the venues take,
 * in whole cents.
 */
export function fundableNotional(order: PreTradeOrder, binance: VenueFigures, deriv: VenueFigures): Money {
  let most = order.notional;
  const b = binance.rules;
  if (b.maxNotional !== null) most = Money.min(most, b.maxNotional);
  if (order.direction === 'deriv-rich') {
    most = Money.min(most, heldOf(binance.balances, 'USDT').dividedBy(money(1).plus(b.feeRate)));
  } else {
    most = Money.min(most, heldOf(binance.balances, coinOf(order.symbol)).times(order.binancePrice));
  }
  const d = deriv.rules;
  if (d.multiplier !== null) {
    const perNotional = money(1).dividedBy(d.multiplier).plus(d.feeRate);
    most = Money.min(most, heldOf(deriv.balances, 'USDT').dividedBy(perNotional));
    if (d.maxStake !== null) most = Money.min(most, money(d.maxStake).times(d.multiplier));
  }
  return Money.max(0, most).toDecimalPlaces(2, Money.ROUND_DOWN);
}

export type SizedResult = { ok: true; notional: Money } | Extract<PreTradeResult, { ok: false }>;

/**
 * An automated trade is sized to what the balances fund (never below `minNotional`), then checked; a manual one is
 * checked at the size asked. When even the smallest trade cannot be funded, the refusal is the one for the size
 * decided, which says what is missing.
 */
export function sizeAndCheck(
  order: PreTradeOrder,
  binance: VenueFigures,
  deriv: VenueFigures,
  fit: { minNotional: Money } | null,
): SizedResult {
  if (fit) {
    const fundable = fundableNotional(order, binance, deriv);
    if (fundable.lt(order.notional) && fundable.gte(fit.minNotional)) {
      const smaller = preTradeCheck({ ...order, notional: fundable }, binance, deriv);
      if (smaller.ok) return { ok: true, notional: fundable };
    }
  }
  const check = preTradeCheck(order, binance, deriv);
  return check.ok ? { ok: true, notional: order.notional } : check;
}

/** Both legs: Binance first (a mirror without coin is a skip, not a failure), then Deriv. */
export function preTradeCheck(order: PreTradeOrder, binance: VenueFigures, deriv: VenueFigures): PreTradeResult {
  const first = checkBinance(order, binance);
  return first.ok ? checkDeriv(order, deriv) : first;
}
