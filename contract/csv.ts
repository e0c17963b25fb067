// The trades CSV: one definition of its columns and of how a trade becomes a row, used by the server's streamed
// export and by the client's offline export, so both files read the same. Decimals are written with a decimal point
// and no exponent or grouping; dates are ISO 8601 (UTC). No runtime dependencies.
import { VENUES, type VenueId } from './domain';

/** A fill as either side holds it: the server's exact decimal strings, the client's JSON numbers. */
export interface CsvFill {
  price: string | number;
  quantity: string | number;
  fee: string | number;
  at: string;
}

export interface CsvLeg {
  venue: VenueId;
  side: string;
  open: CsvFill | null;
  close: CsvFill | null;
}

export interface CsvTrade {
  _id: string;
  tradeId: string;
  symbol: string;
  status: string;
  origin: string;
  totalAmount: string | number;
  arbitrageSpread: string | number;
  actualProfit: string | number;
  reason: string | null;
  createdAt: string;
  closedAt: string | null;
  legs: CsvLeg[];
}

const LEG_COLUMNS = [
  'side',
  'open_price',
  'open_quantity',
  'open_fee',
  'close_price',
  'close_quantity',
  'close_fee',
] as const;

export const TRADES_CSV_COLUMNS: readonly string[] = [
  'id',
  'trade_id',
  'created_at',
  'closed_at',
  'symbol',
  'status',
  'origin',
  'notional_usdt',
  'spread_at_open',
  'profit_usdt',
  'fees_usdt',
  'reason',
  ...VENUES.flatMap((venue) => LEG_COLUMNS.map((c) => `${venue}_${c}`)),
];

/** A decimal as plain text: '0.00012', never '1.2e-4'; trailing zeros of a stored numeric (scale 10) dropped. */
export function plainDecimal(value: string | number): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    // String() gives the shortest text that reads back as the same double; only its exponent form needs expanding.
    return expandExponent(String(value));
  }
  const text = value.trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  if (!text.includes('.')) return text;
  const trimmed = text.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

/** '1.5e-7' → '0.00000015', '1e+21' → '1000000000000000000000'. */
function expandExponent(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, lead, rest = '', exp] = match;
  const digits = `${lead}${rest}`;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Exact sum of decimal strings/numbers, done on scaled integers so no binary float rounds the total of the fees. */
function sumDecimals(values: Array<string | number>): string {
  const SCALE = 10;
  let total = 0n;
  for (const v of values) {
    const text = plainDecimal(v);
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
    if (!match) continue;
    const fraction = (match[3] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
    const units = BigInt((match[2] ?? '0') + fraction);
    total += match[1] === '-' ? -units : units;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(SCALE + 1, '0');
  return plainDecimal(`${negative ? '-' : ''}${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`);
}

/**
 * One field, quoted when it holds a separator, quote or line break (RFC 4180). Text that a spreadsheet would run as
 * a formula (=, +, -, @ first) is prefixed with a quote mark (OWASP CSV injection); numbers are never text here.
 */
export function csvField(value: string, text = false): string {
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header line, CRLF-terminated as RFC 4180 has it. */
export function tradesCsvHeader(): string {
  return `${TRADES_CSV_COLUMNS.join(',')}\r\n`;
}

const fillFields = (fill: CsvFill | null): string[] =>
  fill ? [plainDecimal(fill.price), plainDecimal(fill.quantity), plainDecimal(fill.fee)] : ['', '', ''];

/** A trade as one CRLF-terminated line under tradesCsvHeader(). */
export function tradeCsvLine(trade: CsvTrade): string {
  const fees = trade.legs
    .flatMap((leg) => [leg.open?.fee, leg.close?.fee])
    .filter((f): f is string | number => f !== undefined);
  const fields = [
    csvField(trade._id, true),
    csvField(trade.tradeId, true),
    trade.createdAt,
    trade.closedAt ?? '',
    csvField(trade.symbol, true),
    trade.status,
    trade.origin,
    plainDecimal(trade.totalAmount),
    plainDecimal(trade.arbitrageSpread),
    plainDecimal(trade.actualProfit),
    sumDecimals(fees),
    csvField(trade.reason ?? '', true),
    ...VENUES.flatMap((venue) => {
      const leg = trade.legs.find((l) => l.venue === venue);
      return leg ? [leg.side, ...fillFields(leg.open), ...fillFields(leg.close)] : ['', '', '', '', '', '', ''];
    }),
  ];
  return `${fields.join(',')}\r\n`;
}

/** The file name a download gets: trades-<from>-<to>.csv with the range's dates (or 'start'/'now'). */
export function tradesCsvFileName(from: string | undefined, to: string | undefined): string {
  const day = (iso: string | undefined, fallback: string) => (iso ? iso.slice(0, 10) : fallback);
  return `trades-${day(from, 'start')}-to-${day(to, 'now')}.csv`;
}
