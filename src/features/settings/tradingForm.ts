import { TRADING_DEFAULTS, TRADING_LIMITS, type SymbolId } from '../../../contract/domain';
import type { PublicUser } from '../../../contract/entities';
import { fractionOf, percentOf, percentText } from '../../../contract/percent';
import { LIMIT_MESSAGES } from '../../../contract/messages';

/** The form shows min spread in percent; the wire carries a fraction. */
export interface TradingForm {
  maxExposure: string;
  minSpreadPercent: string;
  maxLoss: string;
  tradingEnabled: boolean;
  /** The pairs the user trades, when the form offers a choice (the server trades more than the spec's two). */
  symbols?: SymbolId[];
}

/** Spec section 9 form defaults (1000, 0.2 %, 100, disabled), as the contract defines them. */
export const FORM_DEFAULTS: TradingForm = {
  maxExposure: String(TRADING_DEFAULTS.maxExposure),
  minSpreadPercent: String(percentOf(TRADING_DEFAULTS.minSpread)),
  maxLoss: String(TRADING_DEFAULTS.maxLoss),
  tradingEnabled: TRADING_DEFAULTS.tradingEnabled,
};

export function formFromUser(u: PublicUser | null): TradingForm {
  if (!u) return FORM_DEFAULTS;
  return {
    maxExposure: String(u.maxExposure ?? TRADING_DEFAULTS.maxExposure),
    minSpreadPercent: String(percentOf(u.minSpread ?? TRADING_DEFAULTS.minSpread)),
    maxLoss: String(u.maxLoss ?? TRADING_DEFAULTS.maxLoss),
    tradingEnabled: u.tradingEnabled ?? TRADING_DEFAULTS.tradingEnabled,
    ...(u.symbols && { symbols: [...u.symbols] }),
  };
}

export function bodyFromForm(f: TradingForm): {
  maxExposure: number;
  minSpread: number;
  maxLoss: number;
  tradingEnabled: boolean;
  symbols?: SymbolId[];
} {
  return {
    maxExposure: Number(f.maxExposure),
    minSpread: fractionOf(Number(f.minSpreadPercent)),
    maxLoss: Number(f.maxLoss),
    tradingEnabled: f.tradingEnabled,
    ...(f.symbols && { symbols: f.symbols }),
  };
}

export type TradingFormErrors = Partial<Record<'maxExposure' | 'minSpreadPercent' | 'maxLoss' | 'symbols', string>>;

/** The message when no pair is picked (the server's schema says the same). */
export const NO_PAIR_PICKED = 'Pick at least one pair to trade';

const grouped = (n: number) => n.toLocaleString('en-US');

/**
 * The form's own check before it sends, with the server's words (contract/messages.ts LIMIT_MESSAGES, which
 * contract/api.ts TradingSettingsBody states and contract/field-messages.ts matches): an empty or non-numeric field, or one outside the contract's bounds. Any number inside
 * the bounds is fine (0.25 %, 150 USDT): the inputs take `step="any"`.
 */
export function validateTradingForm(f: TradingForm): TradingFormErrors {
  const errors: TradingFormErrors = {};
  const check = (
    key: keyof TradingFormErrors,
    label: string,
    raw: string,
    min: number,
    max: number,
    maxText: string,
  ) => {
    if (raw.trim() === '') errors[key] = LIMIT_MESSAGES.required(label);
    else if (!Number.isFinite(Number(raw))) errors[key] = LIMIT_MESSAGES.notANumber(label);
    else if (Number(raw) < min) errors[key] = LIMIT_MESSAGES.belowMin(label, min);
    else if (Number(raw) > max) errors[key] = LIMIT_MESSAGES.aboveMax(label, maxText);
  };
  const { maxExposure, minSpread, maxLoss } = TRADING_LIMITS;
  check('maxExposure', 'Max exposure', f.maxExposure, maxExposure.min, maxExposure.max, grouped(maxExposure.max));
  check(
    'minSpreadPercent',
    'Min spread',
    f.minSpreadPercent,
    percentOf(minSpread.min),
    percentOf(minSpread.max),
    percentText(minSpread.max),
  );
  check('maxLoss', 'Max loss', f.maxLoss, maxLoss.min, maxLoss.max, grouped(maxLoss.max));
  if (f.symbols && f.symbols.length === 0) errors.symbols = NO_PAIR_PICKED;
  return errors;
}
