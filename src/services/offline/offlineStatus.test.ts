import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../realtime/realtimeService';
import { offlineStatus, type OfflineStatus } from './offlineStatus';

describe('offlineStatus', () => {
  it('offline when the browser is, or while the realtime link is down; data time is the newest seen', () => {
    const online$ = new BehaviorSubject(true);
    const link$ = new BehaviorSubject<ConnectionState>('connected');
    const prices$ = new Subject<number | null>();
    const stats$ = new Subject<number | null>();
    const seen: OfflineStatus[] = [];
    const sub = offlineStatus({ online$, connection$: link$, updatedAt$: [prices$, stats$] }).subscribe((s) =>
      seen.push(s),
    );
    const last = () => seen[seen.length - 1];

    expect(last()).toEqual({ offline: false, dataFrom: null });
    prices$.next(100);
    stats$.next(null);
    stats$.next(150);
    prices$.next(200);
    expect(last()).toEqual({ offline: false, dataFrom: 200 });
    online$.next(false);
    expect(last()).toEqual({ offline: true, dataFrom: 200 });
    online$.next(true);
    link$.next('retrying');
    expect(last()).toEqual({ offline: true, dataFrom: 200 });
    link$.next('gave-up');
    link$.next('connected');
    expect(last()).toEqual({ offline: false, dataFrom: 200 });
    // No duplicates: each emission is a change.
    expect(seen.map((s) => `${s.offline}:${s.dataFrom}`)).toEqual([
      'false:null',
      'false:100',
      'false:150',
      'false:200',
      'true:200',
      'false:200',
      'true:200',
      'false:200',
    ]);
    sub.unsubscribe();
  });
});
