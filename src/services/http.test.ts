import { describe, expect, it } from 'vitest';
import { ApiError, createHttp, messageOf } from './http';

function fakeFetch(status: number, body: unknown, seen: { url?: string; init?: RequestInit } = {}) {
  return (async (url: RequestInfo | URL, init?: RequestInit) => {
    seen.url = String(url);
    seen.init = init;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

describe('REST client', () => {
  it('calls /api with the bearer token and drops empty query values', async () => {
    const seen: { url?: string; init?: RequestInit } = {};
    const http = createHttp({
      getToken: () => 'tok',
      onUnauthorized: () => {},
      fetch: fakeFetch(200, { success: true, trades: [] }, seen),
    });
    await http.get('/trades', { status: '', symbol: 'BTC/USDT', page: 1 });
    expect(seen.url).toBe('/api/trades?symbol=BTC%2FUSDT&page=1');
    expect((seen.init?.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });

  it.each([
    ['a 401 on any call ends the session', '/trades', 401, 1],
    ['a 401 on login does not', '/auth/login', 401, 0],
    ['a 403 does not', '/admin/users', 403, 0],
  ])('%s', async (_n, path, status, calls) => {
    let ended = 0;
    const http = createHttp({
      getToken: () => 'tok',
      onUnauthorized: () => ended++,
      fetch: fakeFetch(status, { success: false, message: 'No' }),
    });
    await expect(http.post(path, {})).rejects.toBeInstanceOf(ApiError);
    expect(ended).toBe(calls);
  });

  it("keeps the server's message and errors, and falls back to the spec text without one", async () => {
    const http = createHttp({
      getToken: () => null,
      onUnauthorized: () => {},
      fetch: fakeFetch(400, { success: false, message: 'Bad', errors: [{ msg: 'x' }] }),
    });
    const err = (await http.put('/auth/profile', {}).catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.serverMessage, err.errors]).toEqual([400, 'Bad', [{ msg: 'x' }]]);
    expect(messageOf(err, 'Failed to update profile')).toBe('Bad');
    expect(messageOf(new Error('boom'), 'Failed to update profile')).toBe('Failed to update profile');
  });

  it('a 401 for a token replaced while the call was on its way does not end the new session', async () => {
    let token = 'old';
    let ended = 0;
    const fetch401 = (async () => {
      token = 'new'; // the password change's answer renewed the token meanwhile
      return new Response(JSON.stringify({ success: false, message: 'Session ended' }), { status: 401 });
    }) as typeof fetch;
    const http = createHttp({ getToken: () => token, onUnauthorized: () => ended++, fetch: fetch401 });
    await expect(http.get('/auth/profile')).rejects.toBeInstanceOf(ApiError);
    expect(ended).toBe(0);
  });

  it('a network failure is status 0', async () => {
    const http = createHttp({
      getToken: () => null,
      onUnauthorized: () => {},
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof fetch,
    });
    const err = (await http.get('/balances').catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(0);
  });
});
