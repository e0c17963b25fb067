// What each notification says, and where a click on it leads. Pure: the engine's events (and the kill switch's
// outcome) in, a PushMessage out; the service worker shows title and body and opens `url`.
import type { Notice, Trade } from '../../contract';
import type { PushMessage } from '../../contract/notifications';

/** Profit as a trader reads it: a sign, cents for whole dollars, four places below one. */
export function signedUsdt(amount: number): string {
  const digits = Math.abs(amount) >= 1 ? 2 : 4;
  const text = Math.abs(amount).toFixed(digits);
  return `${amount > 0 ? '+' : amount < 0 ? '−' : ''}${text} USDT`;
}

/** Trades list: there is no detail screen, so a trade's notification opens the list (its tag names the trade). */
export const TRADES_URL = '/trades';
export const SETTINGS_URL = '/settings';

/** A finished trade's notification; null for states nobody is told about (pending, cancelled by the user). */
export function tradeMessage(trade: Trade, at = new Date()): PushMessage | null {
  if (trade.status === 'completed') {
    return {
      kind: 'tradeCompleted',
      title: `Trade completed: ${trade.symbol} ${signedUsdt(trade.actualProfit)}`,
      body: `${trade.tradeId} · ${trade.totalAmount} USDT ${trade.origin === 'manual' ? 'manual' : 'automated'} trade${trade.reason ? ` · closed: ${trade.reason}` : ''}`,
      url: TRADES_URL,
      tag: `trade-${trade._id}`,
      at: at.toISOString(),
    };
  }
  if (trade.status === 'failed') {
    return {
      kind: 'tradeFailed',
      title: `Trade failed: ${trade.symbol}`,
      body: `${trade.tradeId} · ${trade.reason ?? 'a leg could not be placed'}${trade.actualProfit !== 0 ? ` · unwind ${signedUsdt(trade.actualProfit)}` : ''}`,
      url: TRADES_URL,
      tag: `trade-${trade._id}`,
      at: at.toISOString(),
    };
  }
  return null;
}

/** The engine stopped the user's trading (a notice that carries the saved pause): a halt at maxLoss, or a pause. */
export function noticeMessage(notice: Notice, at = new Date()): PushMessage | null {
  const stop = notice.user;
  if (!stop || stop.tradingEnabled !== false || (stop.tradingStop !== 'paused' && stop.tradingStop !== 'max-loss'))
    return null;
  const reason = stop.tradingPauseReason ?? notice.message;
  const halted = stop.tradingStop === 'max-loss';
  return {
    kind: halted ? 'maxLoss' : 'tradingPaused',
    title: halted ? 'Trading halted: max loss reached' : 'Trading paused',
    body: `${reason}. Turn automated trading on in Settings to trade again.`,
    url: SETTINGS_URL,
    tag: 'trading-state',
    at: at.toISOString(),
  };
}

/** What the kill switch reports: a user's "stop & flatten", or an admin's global halt. */
export interface KillSwitchOutcome {
  scope: 'user' | 'global';
  /** Trades closed, and those that could not be (left for the engine to retry). */
  closed: number;
  failed: number;
  /** Who pulled it, as the recipient should read it ('you', 'an admin'). */
  by: string;
}

export function killSwitchMessage(outcome: KillSwitchOutcome, at = new Date()): PushMessage {
  const trades = `${outcome.closed} trade${outcome.closed === 1 ? '' : 's'} closed${outcome.failed > 0 ? `, ${outcome.failed} still closing` : ''}`;
  return {
    kind: 'killSwitch',
    title: outcome.scope === 'global' ? 'Trading halted for everyone' : 'Stop & flatten done',
    body:
      outcome.scope === 'global'
        ? `Trading was halted by ${outcome.by}: no new trades; open trades close as usual. Only an admin can resume it.`
        : `Automated trading is off (by ${outcome.by}). ${trades}.`,
    url: outcome.scope === 'global' ? '/dashboard' : TRADES_URL,
    tag: 'kill-switch',
    at: at.toISOString(),
  };
}

export function testMessage(at = new Date()): PushMessage {
  return {
    kind: 'test',
    title: 'Test notification',
    body: 'Notifications reach this device. Choose which ones you get in Settings.',
    url: SETTINGS_URL,
    tag: 'test',
    at: at.toISOString(),
  };
}

/** The answer to a Stop & flatten, in the app and in Telegram alike. */
export function flattenSummary(outcome: {
  handedOff: boolean;
  open: number;
  closed: number;
  stillClosing: number;
}): string {
  const { open, closed, stillClosing } = outcome;
  if (open === 0) return 'Automated trading stopped. You had no open trades.';
  if (outcome.handedOff)
    return `Automated trading stopped. The engine instance is closing your ${open} open trade${open === 1 ? '' : 's'} now.`;
  if (stillClosing === 0) return `Automated trading stopped and ${closed} open trade${closed === 1 ? '' : 's'} closed.`;
  return `Automated trading stopped. ${closed} trade${closed === 1 ? '' : 's'} closed; ${stillClosing} still closing.`;
}
