// What Deriv offers for each symbol: the multipliers (contracts_for) and the stake bounds and commission (from a
// proposal's validation_params), kept for a while and read again after it, or at once after Deriv refused a
// multiplier. The stop-out of a multiplier sits near an adverse move of 1/multiplier: a hedge takes the lowest.
import Decimal from 'decimal.js';
import type { Json } from './client';

export type ContractType = 'MULTUP' | 'MULTDOWN';

export interface Offer {
  /** Lowest multiplier offered per contract type. */
  lowest: Record<ContractType, number | null>;
  /** Deriv's suggested stake, for a probe proposal. */
  defaultStake: number | null;
}

export interface StakeTerms {
  minStake: string | null;
  maxStake: string | null;
  /** Commission as a fraction of stake × multiplier. */
  commissionRate: string;
}

/** The multipliers of a contracts_for answer. */
export function parseOffer(answer: Json): Offer {
  const available = ((answer['contracts_for'] as { available?: Json[] } | undefined)?.available ?? []) as Array<{
    contract_type?: string;
    multiplier_range?: number[];
    default_stake?: number;
  }>;
  const lowest: Record<ContractType, number | null> = { MULTUP: null, MULTDOWN: null };
  let defaultStake: number | null = null;
  for (const item of available) {
    if (item.contract_type !== 'MULTUP' && item.contract_type !== 'MULTDOWN') continue;
    const range = (item.multiplier_range ?? []).map(Number).filter((m) => Number.isFinite(m) && m > 0);
    if (range.length === 0) continue;
    const low = Math.min(...range);
    const current = lowest[item.contract_type];
    lowest[item.contract_type] = current === null ? low : Math.min(current, low);
    if (item.default_stake !== undefined) defaultStake = item.default_stake;
  }
  return { lowest, defaultStake };
}

/** Stake bounds and commission rate from a proposal answer. */
export function parseStakeTerms(proposal: Json, stake: number, multiplier: number): StakeTerms {
  const bounds = ((
    proposal['validation_params'] as { stake?: { min?: string | number; max?: string | number } } | undefined
  )?.stake ?? {}) as {
    min?: string | number;
    max?: string | number;
  };
  const commission = new Decimal(Number(proposal['commission'] ?? 0));
  const exposure = new Decimal(stake).times(multiplier);
  return {
    minStake: bounds.min === undefined ? null : new Decimal(bounds.min).toFixed(),
    maxStake: bounds.max === undefined ? null : new Decimal(bounds.max).toFixed(),
    commissionRate: exposure.gt(0) ? commission.dividedBy(exposure).toFixed() : '0',
  };
}
