// Who is asking is settled before the request is read: on every route of the OpenAPI document that is not declared
// public, an anonymous or forged request gets 401 whatever its body or query (never field errors, which would tell a
// stranger what the route takes), and a signed-in user gets 403 from admin routes just the same. A route added under
// /api without naming the authentication hook is authenticated all the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { documentedRoutes, type DocumentedRoute, type OpenApiDocument } from './openapi-routes';

const INVALID_BODY = JSON.stringify({ junk: 'x\u0000', username: 7, endpoint: 'file:///etc/passwd' });
const INVALID_QUERY = '?page=-1&limit=abc&symbol=DOGE&from=yesterday&closeTrades=maybe';

describe('authentication before validation', () => {
  let t: TestApp;
  let user: SignedIn;
  let routes: DocumentedRoute[];
  beforeAll(async () => {
    t = await createTestApp('pglite', {
      register: (app) => {
        // Names no hook and declares nothing: still only for signed-in callers.
        app.get('/api/test-only/forgotten', async () => ({ success: true, secret: 42 }));
        app.get('/api/test-only/open', { schema: { security: [] } }, async () => ({ success: true }));
      },
    });
    user = await t.createUser();
    routes = documentedRoutes(t.app.swagger() as OpenApiDocument);
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (route: DocumentedRoute, authorization?: string) =>
    t.app.inject({
      method: route.method,
      url: route.route.replace(':id', 'not-a-valid-id') + INVALID_QUERY,
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      ...(route.method !== 'GET' && { payload: INVALID_BODY }),
    });

  it('answers 401 to anonymous and forged requests on every non-public route, before reading the body', async () => {
    const forged = `Bearer ${user.token.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`;
    const guarded = routes.filter((r) => !r.public);
    expect(guarded.length).toBeGreaterThan(40);
    for (const route of guarded) {
      for (const authorization of [undefined, forged, 'Basic YWRtaW46YWRtaW4=']) {
        const res = await send(route, authorization);
        const what = `${route.method} ${route.route} ${authorization ?? 'anonymous'} → ${res.statusCode} ${res.body}`;
        expect(res.statusCode, what).toBe(401);
        expect(res.json(), what).not.toHaveProperty('errors');
      }
    }
  });

  it('answers 403 to a signed-in user on every admin route, before reading the body', async () => {
    const admin = routes.filter((r) => r.route.startsWith('/api/admin/'));
    expect(admin.length).toBeGreaterThan(5);
    for (const route of admin) {
      const res = await send(route, `Bearer ${user.token}`);
      expect(res.statusCode, `${route.method} ${route.route} → ${res.body}`).toBe(403);
    }
  });

  it('validates only once the caller may use the route', async () => {
    const res = await send(
      routes.find((r) => r.route === '/api/notifications/subscriptions' && r.method === 'POST') as DocumentedRoute,
      `Bearer ${user.token}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.length).toBeGreaterThan(0);
  });

  it('authenticates a route under /api that forgot to ask, and leaves one declared public open', async () => {
    expect((await t.request('GET', '/api/test-only/forgotten')).statusCode).toBe(401);
    expect((await t.request('GET', '/api/test-only/forgotten', { token: user.token })).json().secret).toBe(42);
    expect((await t.request('GET', '/api/test-only/open')).statusCode).toBe(200);
  });
});
