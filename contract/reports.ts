// P&L reports: the realised P&L of finished trades, bucketed by day, week or month in the user's time zone, and by
// pair. The figures are the contract's (figures.ts): a bucket's net P&L is `netProfit` over its trades (the sum of
// `actualProfit`, net of every fee), its won count uses isWinningTrade, and a trade lands in the bucket of the instant
// it finished (finishedAt, the equity curve's order). Pure functions over the trades; no I/O.
// One module per function: the package's index loads all of its ~300 modules, which the server pays for at every start.
import { format } from 'date-fns/format';
import { startOfISOWeek } from 'date-fns/startOfISOWeek';
import { csvField, plainDecimal } from './csv';
import type { TradeStatus } from './domain';
import { finishedAt, isFinished, isWinningTrade } from './figures';

export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** What a report reads of a trade (the Trade entity carries all of it). */
export interface ReportTrade {
  symbol: string;
  status: TradeStatus;
  actualProfit: number;
  closedAt: string | null;
  updatedAt: string;
  legs: readonly { open: { fee: number } | null; close: { fee: number } | null }[];
}

/** One row of a report: a period (its key) or a pair. */
export interface ReportRow {
  /** 'YYYY-MM-DD' (a day, or the Monday a week starts on), 'YYYY-MM' (a month), or the pair. */
  key: string;
  /** Finished trades. */
  trades: number;
  /** Won trades (WINNING_TRADE). */
  won: number;
  /** Realised P&L net of every fee (netProfit over these trades), USDT. */
  netProfit: number;
  /** Fees paid on every fill of these trades, USDT (already inside netProfit). */
  fees: number;
}

/** A trade's total fees: every fill's fee on both legs, opening and closing, USDT. */
export function tradeFees(trade: Pick<ReportTrade, 'legs'>): number {
  let total = 0;
  for (const leg of trade.legs) total += (leg.open?.fee ?? 0) + (leg.close?.fee ?? 0);
  return total;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day ('YYYY-MM-DD') an instant falls on in an IANA time zone. */
export function dayIn(ms: number, timeZone: string): string {
  let f = dayFormats.get(timeZone);
  if (!f) {
    // en-CA writes dates as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, f);
  }
  return f.format(ms);
}

/** The bucket key of a calendar day: the day itself, the Monday its week starts on, or its month. */
export function periodKey(day: string, period: ReportPeriod): string {
  if (period === 'day') return day;
  if (period === 'month') return day.slice(0, 7);
  // Calendar arithmetic only: the day at noon of the process's zone, so no offset or DST shift moves it a day.
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return format(startOfISOWeek(new Date(y, m - 1, d, 12)), 'yyyy-MM-dd');
}

const emptyRow = (key: string): ReportRow => ({ key, trades: 0, won: 0, netProfit: 0, fees: 0 });

function fold(rows: Map<string, ReportRow>, key: string, t: ReportTrade): void {
  let row = rows.get(key);
  if (!row) rows.set(key, (row = emptyRow(key)));
  row.trades++;
  if (isWinningTrade(t)) row.won++;
  row.netProfit += t.actualProfit;
  row.fees += tradeFees(t);
}

/** P&L per day, week (Monday first) or month in `timeZone`, newest period first; open trades are not in it. */
export function pnlByPeriod(trades: readonly ReportTrade[], period: ReportPeriod, timeZone: string): ReportRow[] {
  const rows = new Map<string, ReportRow>();
  for (const t of trades) {
    if (!isFinished(t.status)) continue;
    const at = finishedAt(t);
    if (!Number.isFinite(at)) continue;
    fold(rows, periodKey(dayIn(at, timeZone), period), t);
  }
  return [...rows.values()].sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
}

/** P&L per pair over finished trades, the largest net P&L first. */
export function pnlByPair(trades: readonly ReportTrade[]): ReportRow[] {
  const rows = new Map<string, ReportRow>();
  for (const t of trades) if (isFinished(t.status)) fold(rows, t.symbol, t);
  return [...rows.values()].sort((a, b) => b.netProfit - a.netProfit || a.key.localeCompare(b.key));
}

/** The sum of a report's rows (its totals line). */
export function reportTotal(rows: readonly ReportRow[]): ReportRow {
  const total = emptyRow('total');
  for (const r of rows) {
    total.trades += r.trades;
    total.won += r.won;
    total.netProfit += r.netProfit;
    total.fees += r.fees;
  }
  return total;
}

/** A report as CSV (RFC 4180, CRLF): one header, a line per row; amounts to 8 decimals. */
export function reportCsv(rows: readonly ReportRow[], first: ReportPeriod | 'pair'): string {
  const round = (n: number) => plainDecimal(Math.round(n * 1e8) / 1e8);
  const lines = [[first, 'trades', 'won', 'net_pnl_usdt', 'fees_usdt'].join(',')];
  for (const r of rows)
    lines.push([csvField(r.key, true), r.trades, r.won, round(r.netProfit), round(r.fees)].join(','));
  return `${lines.join('\r\n')}\r\n`;
}
