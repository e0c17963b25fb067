// A trade's life in one vocabulary, for every screen, toast, push and export: open; then closed (with how), failed,
// or cancelled — and cancelled only when no leg was ever filled. A trade that held both legs and was closed early
// (by you, by Stop & flatten, by an admin, at max loss) is closed, with its realised P&L, never "cancelled".
// The engine writes the close reasons below (server/engine), so the how is read from a reason the engine chose, never
// from free text; reasons stored before these words (migration 0015 rewrote the ones it could) map too.
import type { TradeStatus } from './domain';

/** How a trade that held its legs was closed. */
export const CLOSE_KINDS = [
  'converged',
  'time-limit',
  'stop',
  'stop-out',
  'by-you',
  'flattened',
  'max-loss',
  'admin',
] as const;
export type CloseKind = (typeof CLOSE_KINDS)[number];

/**
 * The reason the engine stores when it closes a trade that way. A stop-out's reason continues after the prefix with
 * the venue's own words (`stopped out by the venue: Deriv stopped the contract out`); an admin's names the action
 * (`account deactivated by an admin`).
 */
export const CLOSE_REASONS: Record<CloseKind, string> = {
  converged: 'converged',
  'time-limit': 'time limit',
  stop: 'stop: spread widened',
  'stop-out': 'stopped out by the venue',
  'by-you': 'closed by you',
  flattened: 'stop & flatten',
  'max-loss': 'max loss reached',
  admin: 'closed by an admin',
};

/** What a closed trade is called, by how it closed. */
export const CLOSED_LABELS: Record<CloseKind, string> = {
  converged: 'Closed — converged',
  'time-limit': 'Closed — time limit',
  stop: 'Closed — stop',
  'stop-out': 'Closed — stop-out',
  'by-you': 'Closed by you',
  flattened: 'Closed — flattened',
  'max-loss': 'Closed — max loss',
  admin: 'Closed by an admin',
};

/** The one name of a trade that is still open, on every screen, toast and push. */
export const OPEN_LABEL = 'Open';
export const CLOSED_LABEL = 'Closed';
export const FAILED_LABEL = 'Failed';
export const CANCELLED_LABEL = 'Cancelled';

/** Reasons written before this vocabulary, and the venue's own words for a position it closed. */
const LEGACY_REASONS: Record<string, CloseKind> = {
  'cancelled by user': 'by-you',
  'account deactivated': 'admin',
  'user deleted': 'admin',
};

/** How a closed trade closed, from the reason the engine stored; null when the reason says nothing known. */
export function closeKindOf(reason: string | null): CloseKind | null {
  if (reason === null) return null;
  for (const kind of CLOSE_KINDS) if (reason === CLOSE_REASONS[kind]) return kind;
  if (reason.startsWith(`${CLOSE_REASONS['stop-out']}:`) || /^Deriv (stopped|sold) the contract/.test(reason))
    return 'stop-out';
  if (reason.endsWith('by an admin')) return 'admin';
  return LEGACY_REASONS[reason] ?? null;
}

export type TradeLifeKind = 'open' | 'closed' | 'failed' | 'cancelled';

export interface TradeLife {
  kind: TradeLifeKind;
  /** How it closed; null unless closed (or closed by a reason this version does not know). */
  how: CloseKind | null;
  /** 'Open', 'Closed — flattened', 'Closed by you', 'Failed', 'Cancelled', … */
  label: string;
}

interface LifeInput {
  status: TradeStatus;
  reason: string | null;
  legs?: readonly { open: unknown }[];
}

/** Whether any leg of the trade was ever filled (an opening fill is kept for good once it exists). */
export const everFilled = (trade: { legs?: readonly { open: unknown }[] }): boolean =>
  (trade.legs ?? []).some((l) => l.open !== null && l.open !== undefined);

/**
 * A trade's life in words. A 'cancelled' row that held a leg (stored by an older version, or cached by an older
 * client) is told as what it was: closed, with how.
 */
export function tradeLifeOf(trade: LifeInput): TradeLife {
  if (trade.status === 'pending') return { kind: 'open', how: null, label: OPEN_LABEL };
  if (trade.status === 'failed') return { kind: 'failed', how: null, label: FAILED_LABEL };
  if (trade.status === 'cancelled' && !everFilled(trade))
    return { kind: 'cancelled', how: null, label: CANCELLED_LABEL };
  const how = closeKindOf(trade.reason);
  return { kind: 'closed', how, label: how ? CLOSED_LABELS[how] : CLOSED_LABEL };
}

/** The stored statuses as a filter names them (the wire keeps the spec's values). */
export const STATUS_LABELS: Record<TradeStatus, string> = {
  pending: OPEN_LABEL,
  completed: CLOSED_LABEL,
  failed: FAILED_LABEL,
  cancelled: CANCELLED_LABEL,
};
