import { TRADING_DEFAULTS } from '../../../contract/domain';
import type { PublicUser } from '../../../contract/entities';

/** The form shows min spread in percent; the wire carries a fraction. */
export interface TradingForm {
  maxExposure: string;
  minSpreadPercent: string;
  maxLoss: string;
  tradingEnabled: boolean;
}

const percentOf = (fraction: number): string => String(Number((fraction * 100).toFixed(4)));

/** Spec section 9 form defaults (1000, 0.2 %, 100, disabled), as the contract defines them. */
export const FORM_DEFAULTS: TradingForm = {
  maxExposure: String(TRADING_DEFAULTS.maxExposure),
  minSpreadPercent: percentOf(TRADING_DEFAULTS.minSpread),
  maxLoss: String(TRADING_DEFAULTS.maxLoss),
  tradingEnabled: TRADING_DEFAULTS.tradingEnabled,
};

export function formFromUser(u: PublicUser | null): TradingForm {
  if (!u) return FORM_DEFAULTS;
  return {
    maxExposure: String(u.maxExposure ?? TRADING_DEFAULTS.maxExposure),
    minSpreadPercent: percentOf(u.minSpread ?? TRADING_DEFAULTS.minSpread),
    maxLoss: String(u.maxLoss ?? TRADING_DEFAULTS.maxLoss),
    tradingEnabled: u.tradingEnabled ?? TRADING_DEFAULTS.tradingEnabled,
  };
}

export function bodyFromForm(f: TradingForm): { maxExposure: number; minSpread: number; maxLoss: number; tradingEnabled: boolean } {
  return {
    maxExposure: Number(f.maxExposure),
    minSpread: Number((Number(f.minSpreadPercent) / 100).toFixed(6)),
    maxLoss: Number(f.maxLoss),
    tradingEnabled: f.tradingEnabled,
  };
}
