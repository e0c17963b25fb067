// GET /api/snapshot carries the user's newest opportunity outcomes (issue 20): after a reload the Opportunities panel
// paints what the engine did with the last opportunities instead of "No opportunities seen yet". The real app and
// database with the engine over scripted venues; only the caller's own outcomes, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotResponse } from '../../../contract/api';
import { backends } from '../helpers/app';
import { createDbEngine, type DbEngine } from './db-engine';

describe.each(backends)('GET /api/snapshot outcomes on %s', (backend) => {
  let d: DbEngine;

  beforeAll(async () => {
    d = await createDbEngine(backend);
  });
  afterAll(async () => {
    await d?.close();
  });

  it('is empty before any opportunity, then holds the outcomes the engine sent, newest first, to their user only', async () => {
    const alice = await d.t.createUser();
    const bob = await d.t.createUser();
    const snapshot = async (token: string) => {
      const res = await d.t.request('GET', '/api/snapshot', { token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as SnapshotResponse;
    };
    expect((await snapshot(alice.token)).outcomes).toEqual([]);

    const added = await d.t.request('POST', '/api/exchanges/trading/add-user', { token: alice.token });
    expect(added.statusCode, added.body).toBe(200);
    d.quote('BTC/USDT', 60_000, 0.01);
    await d.until('an outcome for alice', async () =>
      d.events.some((e) => e.type === 'opportunity_outcome' && e.userId === alice.user._id),
    );
    await d.engine.idle();

    const sent = d.events.flatMap((e) =>
      e.type === 'opportunity_outcome' && e.userId === alice.user._id ? [e.outcome] : [],
    );
    const snap = await snapshot(alice.token);
    expect(snap.outcomes.length).toBeGreaterThan(0);
    expect(snap.outcomes).toEqual([...sent].reverse());
    expect(snap.outcomes[0]).toMatchObject({ symbol: 'BTC/USDT', direction: 'deriv-rich' });
    expect((await snapshot(bob.token)).outcomes).toEqual([]);
  });
});
