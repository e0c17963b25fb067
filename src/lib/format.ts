import { formatDistanceToNow } from 'date-fns';
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

// Dates: every date on screen is shown in the user's time zone (Profile; the browser's by default: contract/time-zone.ts),
// so each formatter takes the zone. Intl does the zone arithmetic (DST included); one formatter is kept per zone and form.

type DateForm = 'tradeDate' | 'date' | 'clock' | 'dateTime' | 'dayMonthTime';

const DATE_FORMS: Record<DateForm, Intl.DateTimeFormatOptions> = {
  tradeDate: { month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  date: { month: 'short', day: 'numeric', year: 'numeric' },
  clock: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  dateTime: {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  },
  dayMonthTime: { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
};

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function partsOf(at: Date, timeZone: string, form: DateForm): Record<string, string> {
  const key = `${timeZone}|${form}`;
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat('en-US', { ...DATE_FORMS[form], timeZone })));
  const out: Record<string, string> = {};
  for (const part of f.formatToParts(at)) out[part.type] = part.value;
  return out;
}

const dateOf = (value: string | number | null | undefined): Date | null => {
  if (value === null || value === undefined || value === '') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** 'MMM dd, HH:mm' in the zone, e.g. 'Nov 21, 10:04'. */
export function formatTradeDate(iso: string | number | null | undefined, timeZone: string): string {
  const d = dateOf(iso);
  if (!d) return '';
  const p = partsOf(d, timeZone, 'tradeDate');
  return `${p.month} ${p.day}, ${p.hour}:${p.minute}`;
}

/** 'MMM d, yyyy' in the zone, e.g. 'Nov 1, 2026'. */
export function formatDate(iso: string | number | null | undefined, timeZone: string): string {
  const d = dateOf(iso);
  if (!d) return '';
  const p = partsOf(d, timeZone, 'date');
  return `${p.month} ${p.day}, ${p.year}`;
}

/** 'HH:mm:ss' in the zone, e.g. '10:04:05'. */
export function formatClock(iso: string | number | null | undefined, timeZone: string): string {
  const d = dateOf(iso);
  if (!d) return '';
  const p = partsOf(d, timeZone, 'clock');
  return `${p.hour}:${p.minute}:${p.second}`;
}

/** 'd MMM yyyy, HH:mm:ss' in the zone, e.g. '21 Nov 2026, 10:04:05'; '—' without a date. */
export function formatDateTime(iso: string | number | null | undefined, timeZone: string): string {
  const d = dateOf(iso);
  if (!d) return '—';
  const p = partsOf(d, timeZone, 'dateTime');
  return `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}:${p.second}`;
}

/** 'MMM d, HH:mm' in the zone, e.g. 'Nov 1, 09:30' (a range's ends). */
export function formatDayTime(iso: string | number | null | undefined, timeZone: string): string {
  const d = dateOf(iso);
  if (!d) return '';
  const p = partsOf(d, timeZone, 'dayMonthTime');
  return `${p.month} ${p.day}, ${p.hour}:${p.minute}`;
}

const offsets = new Map<string, number>();
const QUARTER_HOUR = 900_000;

/**
 * The zone's offset from UTC at an instant, ms (east positive): its wall clock read as UTC, less the instant. Every
 * zone's offset changes on a quarter hour of UTC, so it is computed once per zone and quarter hour (a chart asks for
 * each of its points).
 */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const slot = Math.floor(ms / QUARTER_HOUR);
  const key = `${timeZone}@${slot}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  const at = slot * QUARTER_HOUR;
  const p = partsOf(new Date(at), timeZone, 'dateTime');
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].indexOf(p.month!);
  const offset =
    Date.UTC(Number(p.year), month, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - at;
  if (offsets.size > 5000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/**
 * The instant a calendar day ('YYYY-MM-DD') starts in the zone, ms; `plusDays` moves the day first (1: the next
 * day's start, the end of a range). A day that starts in a DST gap starts at the first instant that exists.
 */
export function zonedDayStart(day: string, timeZone: string, plusDays = 0): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const guess = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  if (Number.isNaN(guess)) return null;
  // The offset at midnight UTC and the one at the first estimate differ when a DST change falls between them: of the
  // two candidates, the earliest whose wall clock is on the day (at or after its midnight) is where the day starts.
  const first = guess - zoneOffsetMs(guess, timeZone);
  const candidates = [first, guess - zoneOffsetMs(first, timeZone)].filter(
    (c) => c + zoneOffsetMs(c, timeZone) >= guess,
  );
  return candidates.length > 0 ? Math.min(...candidates) : first;
}

export function formatRelative(iso: string | null | undefined): string {
  if (!iso) return 'Never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'Never' : formatDistanceToNow(d, { addSuffix: true });
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

/** How long ago, in a few characters: 'just now', '12 s', '3 min', '2 h', '3 d'. */
export function formatAgo(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return 'just now';
  if (ms < 60_000) return `${Math.floor(ms / 1000)} s ago`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ago`;
  if (ms < 86_400_000) return `${Math.floor(ms / 3_600_000)} h ago`;
  return `${Math.floor(ms / 86_400_000)} d ago`;
}

/** A measured round trip: '0.8 ms', '84 ms', '1,240 ms'. */
export function formatLatency(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString('en-US')} ms`;
}
