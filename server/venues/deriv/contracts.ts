// Deriv multiplier contracts as the API describes them, and what the connector derives from them: fills, the exit
// spot a sale implies, and the match of an order attempt to a contract found in the account's records after a crash.
import Decimal from 'decimal.js';

export interface OpenContract {
  contract_id: number;
  contract_type: string;
  underlying: string;
  buy_price: number;
  commission?: number;
  entry_spot?: number;
  current_spot?: number;
  sell_spot?: number;
  exit_tick?: number;
  sell_price?: number;
  sell_time?: number;
  purchase_time?: number;
  date_start?: number;
  multiplier?: number;
  bid_price?: number;
  profit?: number;
  status?: string;
  is_sold: number;
}

/**
 * How an opening order is recognised at Deriv, which has no client order ids: written down before the buy is sent
 * (the order journal), so that after a crash the contract can be found in the account's portfolio or statement.
 */
export interface DerivPlacement {
  contractType: 'MULTUP' | 'MULTDOWN';
  underlying: string;
  /** Stake in the account currency, 2 decimals. */
  stake: string;
  multiplier: number;
  /** When the buy was about to be sent, seconds since epoch. */
  at: number;
}

export function placementOf(record: Record<string, string | number>): DerivPlacement | null {
  const { contractType, underlying, stake, multiplier, at } = record;
  if ((contractType !== 'MULTUP' && contractType !== 'MULTDOWN') || typeof underlying !== 'string') return null;
  if (typeof stake !== 'string' || typeof multiplier !== 'number' || typeof at !== 'number') return null;
  return { contractType, underlying, stake, multiplier, at };
}

/** A contract as the portfolio or statement lists it, with what a match needs. */
export interface ContractCandidate {
  contractId: number;
  contractType: string;
  underlying: string;
  buyPrice: number;
  purchaseTime: number;
}

/** A buy is answered within seconds; one bought this long after the attempt is not it. */
export const MATCH_WINDOW_SECONDS = 120;

/**
 * The contract an unanswered buy bought: same type, underlying and stake, bought no earlier than a few seconds before
 * the attempt was written down (clocks differ) and within the window after it, not owned by another trade. When
 * several fit, the one bought closest to the attempt.
 */
export function matchPlacement(
  placement: DerivPlacement,
  candidates: ContractCandidate[],
  claimed: ReadonlySet<string>,
): ContractCandidate | null {
  const fits = candidates.filter(
    (c) =>
      c.contractType === placement.contractType &&
      c.underlying === placement.underlying &&
      new Decimal(c.buyPrice).eq(placement.stake) &&
      c.purchaseTime >= placement.at - 5 &&
      c.purchaseTime <= placement.at + MATCH_WINDOW_SECONDS &&
      !claimed.has(String(c.contractId)),
  );
  fits.sort((a, b) => Math.abs(a.purchaseTime - placement.at) - Math.abs(b.purchaseTime - placement.at));
  return fits[0] ?? null;
}

/** Coins a contract stands for: stake × multiplier at the entry spot. */
export function quantityOf(contract: OpenContract, fallbackMultiplier: number): Decimal {
  const entry = new Decimal(contract.entry_spot ?? contract.current_spot ?? 0);
  if (entry.lte(0)) return new Decimal(0);
  return new Decimal(contract.buy_price)
    .times(contract.multiplier ?? fallbackMultiplier)
    .dividedBy(entry)
    .toDecimalPlaces(8, Decimal.ROUND_DOWN);
}

/** Inverts Deriv's multiplier value: sold_for = stake + stake × multiplier × direction × (exit/entry − 1) − commission. */
export function impliedExitSpot(contract: OpenContract, soldFor: number): number {
  const stake = new Decimal(contract.buy_price);
  const exposure = stake.times(contract.multiplier ?? 1);
  const entry = new Decimal(contract.entry_spot ?? contract.current_spot ?? 0);
  if (exposure.lte(0) || entry.lte(0)) return entry.toNumber();
  const direction = contract.contract_type === 'MULTUP' ? 1 : -1;
  const move = new Decimal(soldFor)
    .minus(stake)
    .plus(contract.commission ?? 0)
    .dividedBy(exposure)
    .times(direction);
  return entry.times(move.plus(1)).toDecimalPlaces(8).toNumber();
}

/** Why a contract the engine did not sell was sold, in the trader's words. */
export function saleReason(contract: OpenContract): string {
  const value = contract.sell_price ?? contract.bid_price ?? 0;
  return contract.status === 'lost' && value <= 0
    ? 'Deriv stopped the contract out'
    : 'Deriv sold the contract (not ordered by the engine)';
}
