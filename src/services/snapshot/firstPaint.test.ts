import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SnapshotResponse } from '../../../contract/api';
import { createSnapshotSource, OWN_REASON, sharedOrOwn } from './firstPaint';

/** A GET that counts its calls and answers when told. */
function fakeHttp() {
  const pending: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const paths: string[] = [];
  return {
    paths,
    answer: (n = 0) => pending.splice(n, 1)[0]!.resolve({ success: true, marker: paths.length }),
    fail: () => pending.shift()!.reject(new Error('down')),
    get: <T>(path: string) => {
      paths.push(path);
      return new Promise<T>((resolve, reject) => pending.push({ resolve: resolve as (v: unknown) => void, reject }));
    },
  };
}

function setup(reuseMs = 1000) {
  const http = fakeHttp();
  const clock = { now: 0 };
  const invalidate$ = new Subject<void>();
  const answers: unknown[] = [];
  const source = createSnapshotSource({
    http,
    invalidate$,
    reuseMs,
    now: () => clock.now,
    onAnswer: (s) => answers.push(s),
  });
  return { http, clock, invalidate$, source, answers };
}

describe('the shared first-paint snapshot', () => {
  it('makes one call for every stream that asks while it is in flight, and hands each the same answer', async () => {
    const { http, source, answers } = setup();
    const asks = ['u1', 'u1', 'u1', 'u1'].map((u) => source.get(u));
    expect(http.paths).toEqual(['/snapshot']);
    http.answer();
    const got = await Promise.all(asks);
    expect(new Set(got).size).toBe(1);
    expect(answers).toHaveLength(1);
  });

  it('reuses an answer for the panels that start within the reuse time, and asks again after it', async () => {
    const { http, clock, source } = setup(1000);
    const first = source.get('u1');
    http.answer();
    await first;
    clock.now = 1000;
    expect(await source.get('u1')).toBe(await first);
    expect(http.paths).toHaveLength(1);
    clock.now = 1001;
    void source.get('u1');
    expect(http.paths).toHaveLength(2);
  });

  it('asks again after a reconnect, and for another user', async () => {
    const { http, invalidate$, source } = setup();
    const first = source.get('u1');
    http.answer();
    await first;
    invalidate$.next();
    void source.get('u1');
    expect(http.paths).toHaveLength(2);
    void source.get('u2');
    expect(http.paths).toHaveLength(3);
  });

  it('shares a failure with the streams waiting on it but keeps none: the next ask calls again', async () => {
    const { http, source } = setup();
    const a = source.get('u1');
    const b = source.get('u1');
    http.fail();
    await expect(a).rejects.toThrow('down');
    await expect(b).rejects.toThrow('down');
    void source.get('u1');
    expect(http.paths).toHaveLength(2);
  });

  it('join starts the first snapshot of a session and joins a fresh one, but starts none once the first paint is past', async () => {
    const { http, clock, source } = setup(1000);
    const first = source.join('u1');
    expect(first).not.toBeNull();
    expect(source.join('u1')).toBe(first);
    http.answer();
    await first;
    clock.now = 5000;
    expect(source.join('u1')).toBeNull();
    expect(http.paths).toHaveLength(1);
  });

  it("a stream's own triggers use its own endpoint; its start and reconnects the shared answer", async () => {
    const snapshot = { balance: 'from snapshot' } as unknown as SnapshotResponse;
    const read = sharedOrOwn(
      { get: async () => snapshot, join: () => null },
      'u1',
      (s) => (s as unknown as { balance: string }).balance,
      async () => 'from its endpoint',
    );
    expect(await read(undefined)).toBe('from snapshot');
    expect(await read(OWN_REASON)).toBe('from its endpoint');
  });
});
