import { firstValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../contract/entities';
import { createAuthService } from './authService';
import { authStreams } from './authStreams';
import type { SessionStore } from './sessionStorage';
import type { Http } from '../http';

const user = { _id: 'u1', username: 'ann' } as PublicUser;
const memoryStore = (token: string | null): SessionStore => ({
  read: () => ({ token, user: token ? user : null }),
  write() {},
  writeUser() {},
  writeToken() {},
  clear() {},
});

describe('the auth service without RxJS, and its streams', () => {
  it('ready() waits for the restore; subscribers hear every change', async () => {
    const auth = createAuthService({ http: {} as Http, store: memoryStore('t') });
    const seen: boolean[] = [];
    auth.subscribe((s) => seen.push(s.isAuthenticated));
    const ready = auth.ready();
    auth.restore();
    expect((await ready).isAuthenticated).toBe(true);
    auth.expire();
    expect(seen).toEqual([true, false]);
  });

  it('state$ starts with the current state; session$ ignores a profile edit and ends with the session', async () => {
    const auth = createAuthService({ http: {} as Http, store: memoryStore('t') });
    auth.restore();
    const { state$, session$ } = authStreams(auth);
    expect((await firstValueFrom(state$)).isAuthenticated).toBe(true);
    const sessions = firstValueFrom(session$.pipe(take(2), toArray()));
    auth.updateUser({ username: 'anna' });
    auth.expire();
    expect(await sessions).toEqual([{ userId: 'u1', token: 't' }, null]);
  });
});
