import type { PublicUser } from '../../../contract/entities';

/** The form shows min spread in percent; the wire carries a fraction. */
export interface TradingForm {
  maxExposure: string;
  minSpreadPercent: string;
  maxLoss: string;
  tradingEnabled: boolean;
}

/** Spec section 9 form defaults: 1000, 0.2 %, 100, disabled. */
export const FORM_DEFAULTS: TradingForm = { maxExposure: '1000', minSpreadPercent: '0.2', maxLoss: '100', tradingEnabled: false };

export function formFromUser(u: PublicUser | null): TradingForm {
  if (!u) return FORM_DEFAULTS;
  return {
    maxExposure: String(u.maxExposure ?? 1000),
    minSpreadPercent: String(Number(((u.minSpread ?? 0.002) * 100).toFixed(4))),
    maxLoss: String(u.maxLoss ?? 100),
    tradingEnabled: u.tradingEnabled ?? false,
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
