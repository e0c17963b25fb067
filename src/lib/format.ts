import { format, formatDistanceToNow } from 'date-fns';
import { NO_WIN_RATE, winRateText } from '../../contract/figures';

// Display formats of spec section 9: USD 2 decimals, spreads 2 decimals, win rate 1 decimal, coins 6 decimals.
const usdFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatUsd(value: number | null | undefined): string {
  return usdFormat.format(Number.isFinite(value) ? (value as number) : 0);
}

/** A spread fraction shown ×100 with 2 decimals, e.g. 0.00234 → '0.23%'. */
export function formatSpread(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return 'N/A';
  return `${(fraction * 100).toFixed(2)}%`;
}

export function formatCoins(amount: number | null | undefined): string {
  return (Number.isFinite(amount) ? (amount as number) : 0).toFixed(6);
}

/** A price in USD; `decimals` beyond 2 for a coin quoted finer (a pair's tick, contract/pairs.ts). */
export function formatPrice(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  if (decimals <= 2) return usdFormat.format(value);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/** 'MMM dd, HH:mm', e.g. 'Nov 21, 10:04'. */
export function formatTradeDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : format(d, 'MMM dd, HH:mm');
}

export function formatRelative(iso: string | null | undefined): string {
  if (!iso) return 'Never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'Never' : formatDistanceToNow(d, { addSuffix: true });
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : format(d, 'MMM d, yyyy');
}

/** Win rate colour thresholds: green at 70 or more, amber at 50 or more, red below. */
export function winRateTone(percent: number): 'profit' | 'warning' | 'loss' {
  if (percent >= 70) return 'profit';
  if (percent >= 50) return 'warning';
  return 'loss';
}

export function profitTone(value: number): 'profit' | 'loss' {
  return value >= 0 ? 'profit' : 'loss';
}

/**
 * The win rate as a stat card shows it: '—' in neutral while no trade has been decided (a red 0.0 % would say the
 * trader lost every trade), otherwise 1 decimal in the spec's colours.
 */
export function winRateView(figures: { winRate: number; decidedTrades?: number } | null | undefined): {
  text: string;
  tone: 'profit' | 'warning' | 'loss' | 'neutral';
} {
  const text = winRateText(figures);
  if (!figures || text === NO_WIN_RATE) return { text, tone: 'neutral' };
  return { text, tone: winRateTone(figures.winRate) };
}

/**
 * A spread in words, with its sign explained: spread = (Deriv − Binance) / Binance, so 0.0027 reads
 * 'Deriv 0.27% above Binance' and −0.0027 'Deriv 0.27% below Binance'.
 */
export function describeSpread(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return 'No spread yet';
  const size = formatSpread(Math.abs(fraction));
  if (size === '0.00%') return 'Deriv level with Binance';
  return `Deriv ${size} ${fraction > 0 ? 'above' : 'below'} Binance`;
}

/** A duration left, e.g. '1:05' or '0:09'. */
export function formatCountdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** How old a venue's quote is, in words: '0.4 s', '12 s', 'no quote'. */
export function formatAge(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return 'no quote';
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** A small fraction in basis points with 2 decimals, e.g. 0.000123 → '1.23 bp' (slippage is far below 0.01 %). */
export function formatBp(fraction: number): string {
  return `${(fraction * 10_000).toFixed(2)} bp`;
}
