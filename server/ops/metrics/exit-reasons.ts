// A finished trade's reason is a sentence in the trader's words, with figures and venue messages in it: as a metric
// label it would be unbounded. This maps it onto a fixed set of exit reasons; whatever is not recognised counts as
// `other`, so a new wording shows up as a growing `other` rather than as a new series.
import type { Trade } from '../../../contract/entities';

export const EXIT_REASONS = [
  'converged',
  'time_limit',
  'stop',
  'stop_out',
  'venue_closed',
  'closed_by_user',
  'flattened',
  'max_loss',
  'closed_by_admin',
  'leg_failed',
  'not_placed',
  'other',
] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

const BY_TEXT: Array<[RegExp, ExitReason]> = [
  [/^converged/i, 'converged'],
  [/^time limit/i, 'time_limit'],
  [/stop & flatten/i, 'flattened'],
  [/stopped the contract out|stop-?out/i, 'stop_out'],
  [/not ordered by the engine/i, 'venue_closed'],
  [/^stop\b/i, 'stop'],
  [/^cancelled by user|^closed by you/i, 'closed_by_user'],
  [/^max loss/i, 'max_loss'],
  [/by an admin|^account (deactivated|deleted)|^user deleted/i, 'closed_by_admin'],
];

export function exitReasonOf(trade: Pick<Trade, 'status' | 'reason'>): ExitReason {
  const text = trade.reason ?? '';
  for (const [pattern, reason] of BY_TEXT) if (pattern.test(text)) return reason;
  if (trade.status === 'failed') return 'leg_failed';
  if (trade.status === 'cancelled' && text === '') return 'not_placed';
  return 'other';
}
