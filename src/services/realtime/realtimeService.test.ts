import { TestScheduler } from 'rxjs/testing';
import { map, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createRealtimeService } from './realtimeService';
import type { LinkSignal } from './retryPolicy';
import type { ServerEvent } from './socketLink';

const policy = { retries: 3, delayMs: 10 };
const session = { userId: 'u1', token: 't' };

describe('realtime service', () => {
  it('connects when signed in, reports state, resyncs after each reconnect, disconnects when signed out', () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    ts.run(({ cold, hot, flush }) => {
      // Signed in at 0, signed out at 60. The first link drops at 5; the retry (10 ms later) connects at 16.
      const session$ = hot('s-----------------------------------------------------------n', { s: session, n: null });
      const links = [
        cold<LinkSignal<ServerEvent>>('-c---#', { c: { type: 'connected' } }),
        cold<LinkSignal<ServerEvent>>('-c', { c: { type: 'connected' } }),
      ];
      let i = 0;
      const rt = createRealtimeService({
        session$,
        connect: () => links[Math.min(i++, links.length - 1)] as Observable<LinkSignal<ServerEvent>>,
        policy,
        scheduler: ts,
      });
      const states: string[] = [];
      const resyncs: number[] = [];
      rt.state$.subscribe((s) => states.push(`${ts.now()}:${s}`));
      rt.reconnected$.pipe(map(() => ts.now())).subscribe((t) => resyncs.push(t));
      flush();
      expect(states).toEqual(['0:idle', '0:connecting', '1:connected', '5:retrying', '16:connected', '60:idle']);
      expect(resyncs).toEqual([16]);
      // The second link lives from its connect (15) until sign-out (60).
      expect((links[1] as unknown as { subscriptions: unknown[] }).subscriptions).toMatchObject([
        { subscribedFrame: 15, unsubscribedFrame: 60 },
      ]);
    });
  });
});
