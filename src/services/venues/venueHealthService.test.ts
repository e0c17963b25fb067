import { describe, expect, it } from 'vitest';
import type { VenueHealth } from '../../../contract/venue-health';
import { ageOf } from './venueHealthService';

const report = (reportedAt: string, errorAt: string): VenueHealth => ({
  venue: 'deriv',
  state: 'disconnected',
  since: errorAt,
  latencyMs: 12,
  latencyAt: null,
  probe: 'ping',
  lastError: { message: 'Connection to Deriv lost', at: errorAt },
  reportedAt,
});

describe('venue health ages', () => {
  it("count from the server's own report and this device's time since it arrived, whatever the device clock says", () => {
    const health = report('2026-11-27T01:00:05.000Z', '2026-11-27T01:00:00.000Z');
    // A device whose clock runs an hour behind the server's, and one on time: the error is 7 s old on both.
    for (const arrivedAt of [Date.parse('2026-11-27T00:00:05.000Z'), Date.parse('2026-11-27T01:00:05.000Z')])
      expect(ageOf({ health, arrivedAt }, health.lastError!.at, arrivedAt + 2_000)).toBe(7_000);
    expect(ageOf({ health, arrivedAt: 0 }, health.latencyAt, 1_000)).toBeNull();
  });
});
