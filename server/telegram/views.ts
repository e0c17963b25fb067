// What the bot says, as pure functions of what it read: status, positions, help, and a Stop & flatten's result.
// Words come from contract/ (engine states); figures from format.ts in the reader's locale and zone. Nothing secret
// (no keys, no tokens, no e-mail address) is ever part of an answer.
import type { Trade } from '../../contract/entities';
import type { RiskSummary, Prices } from '../../contract/entities';
import { unrealisedPnl } from '../../contract/positions';
import { tradeLifeOf } from '../../contract/trade-life';
import { engineStatusOf } from '../../contract/trading-state';
import { dateTime, escapeHtml, pnl, usdt, type Reader } from './format';

export interface StatusFacts {
  risk: RiskSummary;
  globalHalt: boolean;
  open: Trade[];
  prices: Prices;
  todayPnl: number;
  totalPnl: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function positionLines(reader: Reader, open: Trade[], prices: Prices): string[] {
  return open.map((t) => {
    const mark = unrealisedPnl(t, prices[t.symbol]);
    return `• ${escapeHtml(t.tradeId)} ${t.symbol} ${usdt(reader, t.totalAmount)} · unrealised ${mark === null ? '—' : pnl(reader, mark)}`;
  });
}

export function statusText(reader: Reader, facts: StatusFacts): string {
  const { risk } = facts;
  // The contract's words for the engine's state: the stored stop kind and the admin's global halt together.
  const status = engineStatusOf({ stop: risk.stop ?? null, globalHalt: facts.globalHalt, reason: risk.reason });
  const lines = [
    `<b>Automated trading: ${status.label}</b>`,
    ...(status.kind === 'running' ? [] : [escapeHtml(status.sentence)]),
    `Open trades: ${facts.open.length}`,
    ...positionLines(reader, facts.open, facts.prices),
    `Today: ${pnl(reader, facts.todayPnl)}`,
    `Total (net): ${pnl(reader, facts.totalPnl)}`,
    `Exposure: ${usdt(reader, risk.exposure)} of ${usdt(reader, risk.maxExposure)}`,
  ];
  return lines.join('\n');
}

export function positionsText(reader: Reader, open: Trade[], prices: Prices): string {
  if (open.length === 0) return 'No open trades.';
  return [
    `<b>${plural(open.length, 'open trade')}</b>`,
    ...open.map((t) => {
      const mark = unrealisedPnl(t, prices[t.symbol]);
      return [
        `• <b>${escapeHtml(t.tradeId)}</b> ${t.symbol} ${usdt(reader, t.totalAmount)} (${t.origin === 'manual' ? 'manual' : 'automated'})`,
        `  opened ${escapeHtml(dateTime(reader, t.createdAt))}`,
        `  unrealised ${mark === null ? '— (no price yet)' : pnl(reader, mark)}`,
      ].join('\n');
    }),
  ].join('\n');
}

export function helpText(isAdmin: boolean): string {
  return [
    '<b>Commands</b>',
    '/status: automated trading, open trades, today’s and total P&L',
    '/positions: open trades with unrealised P&L',
    '/stop: Stop & flatten: automated trading off, every open trade closed',
    '/resume: automated trading on again',
    ...(isAdmin ? ['/halt: halt trading for every user (admin)', '/unhalt: lift the global halt (admin)'] : []),
    '/help: this list',
    '',
    'Notifications follow your choices in Settings → Notifications. Unlink this chat in Profile.',
  ].join('\n');
}

/** A Stop & flatten's answer: each trade with its result, as the app's Stop & flatten lists them. */
export function flattenText(
  reader: Reader,
  outcome: {
    message: string;
    trades: Array<Pick<Trade, 'tradeId' | 'symbol' | 'status' | 'actualProfit' | 'reason' | 'legs'>>;
  },
): string {
  return [
    `<b>${escapeHtml(outcome.message)}</b>`,
    ...outcome.trades.map(
      (t) =>
        `• ${escapeHtml(t.tradeId)} ${t.symbol}: ${t.status === 'pending' ? 'closing' : tradeLifeOf(t).label}${
          t.status === 'pending' ? '' : ` ${pnl(reader, t.actualProfit)}`
        }`,
    ),
  ].join('\n');
}
