import { describe, expect, it } from 'vitest';
import { CLOSE_KINDS, CLOSE_REASONS, CLOSED_LABELS, closeKindOf, tradeLifeOf } from './trade-life';

const held = [{ open: { price: 1 } }, { open: { price: 1 } }];
const never = [{ open: null }, { open: null }];

describe('a trade life in words (issue 20, finding 2)', () => {
  it('calls a flattened trade that held both legs "Closed — flattened", never "Cancelled", also as stored before', () => {
    expect(tradeLifeOf({ status: 'completed', reason: 'stop & flatten', legs: held }).label).toBe('Closed — flattened');
    // A row an older version stored (or a client cached) as cancelled, though both legs were filled.
    expect(tradeLifeOf({ status: 'cancelled', reason: 'stop & flatten', legs: held })).toEqual({
      kind: 'closed',
      how: 'flattened',
      label: 'Closed — flattened',
    });
  });

  it('keeps "Cancelled" for a trade no leg of which was ever filled, and one name for an open trade', () => {
    expect(tradeLifeOf({ status: 'cancelled', reason: 'cancelled by user', legs: never }).label).toBe('Cancelled');
    expect(tradeLifeOf({ status: 'pending', reason: null, legs: held }).label).toBe('Open');
    expect(tradeLifeOf({ status: 'failed', reason: 'Deriv refused the stake', legs: held }).label).toBe('Failed');
  });

  it('reads every close reason the engine writes back as its kind, and the older words too', () => {
    for (const kind of CLOSE_KINDS) expect(closeKindOf(CLOSE_REASONS[kind])).toBe(kind);
    expect(closeKindOf('stopped out by the venue: Deriv stopped the contract out')).toBe('stop-out');
    expect(closeKindOf('Deriv stopped the contract out')).toBe('stop-out');
    expect(closeKindOf('account deactivated by an admin')).toBe('admin');
    expect(closeKindOf('cancelled by user')).toBe('by-you');
    expect(closeKindOf('something else')).toBeNull();
    expect(new Set(Object.values(CLOSED_LABELS)).size).toBe(CLOSE_KINDS.length);
  });
});
