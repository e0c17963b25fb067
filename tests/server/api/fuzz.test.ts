// Property: whatever arrives — wrong types, missing fields, huge or unicode strings, bad ids, broken JSON, wrong
// content types, odd query strings, bad tokens — from anyone, at any route of the OpenAPI document, the API never
// answers 5xx, every 4xx is JSON `{ success: false, message }` with a message and no stack trace, and who may ask is
// settled first: a stranger gets 401 from every route not declared public, a user 403 from admin routes.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/database';
import { insertTrades } from './seed';
import { createEngineApp, type Actor, type EngineApp } from './engine-app';
import {
  actorArbitrary,
  bodyFor,
  garbageAuthorization,
  idArbitrary,
  plausibleBody,
  queryFor,
  endpointsOf,
  unacceptableControl,
  ZOD_DEFAULT_TEXT,
  type ActorKind,
  type Endpoint,
  type Method,
} from './fuzz-arbitraries';
import { documentedRoutes, type OpenApiDocument } from './openapi-routes';

/** Answers the router gives before any route runs: no route matched the mangled path, or the URL is malformed. */
const ROUTING_REFUSALS = ['The URL is malformed.', 'A value in the URL path is too long.'];
const isRoutingRefusal = (status: number, message: unknown) =>
  status === 404 || ROUTING_REFUSALS.includes(String(message));

const RUNS = Number(process.env.FUZZ_RUNS ?? 5_000);
/** The PostgreSQL pass repeats the property with fewer requests: the handlers are the same, only the driver differs. */
const runsOn = (backend: string) => (backend === 'pglite' ? RUNS : Math.ceil(RUNS / 2));
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_121);

describe.each(backends)('API fuzz on %s', (backend) => {
  let t: EngineApp;
  const actors: Partial<Record<ActorKind, Actor>> = {};
  const ids: Record<string, string> = {};
  let endpoints: Endpoint[];

  beforeAll(async () => {
    t = await createEngineApp(backend);
    actors.user = await t.createUser();
    actors.other = await t.createUser();
    actors.admin = t.admin;
    const victim = await t.createUser();
    ids['@victim'] = victim.user._id;
    ids['@trade'] = (
      await insertTrades(t.db, actors.user.user._id, [{ status: 'pending' }, { status: 'completed' }])
    )[0] as string;
    ids['@other-trade'] = (await insertTrades(t.db, actors.other.user._id, [{ status: 'pending' }]))[0] as string;
    await t.app.ready();
    endpoints = endpointsOf(t.app.swagger() as OpenApiDocument);
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * A request that ended the actor's own session (logout) must not blind the rest of the run. The fuzz's failed
   * sign-ins trip the sign-in rate limit, so the new session is made directly rather than by signing in.
   */
  async function renewSession(kind: ActorKind): Promise<void> {
    const actor = actors[kind];
    if (actor) actors[kind] = await t.newSession(actor);
  }

  it(`answers ${runsOn(backend)} malformed requests across every endpoint without a 5xx, every 4xx as a JSON message`, async () => {
    const tally = new Map<string, Record<string, number>>();
    const request = fc
      .record({
        endpoint: fc.constantFrom(...endpoints),
        actor: actorArbitrary,
        garbage: garbageAuthorization,
        id: idArbitrary,
        // Now and then the wrong method for the path.
        otherMethod: fc.oneof(
          { weight: 11, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.constantFrom<Method | 'PATCH'>('GET', 'POST', 'PUT', 'DELETE', 'PATCH') },
        ),
      })
      .chain((base) =>
        fc
          .record({ body: bodyFor(base.endpoint, t.config.bodyLimit), query: queryFor(base.endpoint) })
          .map((rest) => ({ ...base, ...rest })),
      );

    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const actor = r.actor === 'anonymous' || r.actor === 'garbage' ? undefined : actors[r.actor];
        const id = r.id.startsWith('@') ? (r.id === '@self' ? (actor?.user._id ?? ids['@victim']) : ids[r.id]) : r.id;
        const path = r.endpoint.route.replace(':id', id ?? r.id);
        const method = r.otherMethod ?? r.endpoint.method;
        const headers: Record<string, string> = {};
        if (actor) headers.authorization = `Bearer ${actor.token}`;
        if (r.actor === 'garbage') headers.authorization = r.garbage;
        if (r.body.contentType) headers['content-type'] = r.body.contentType;
        // Bodies go with every method, GET and DELETE included: a body where none is expected is answered, not a 500.
        const sendsBody = r.body.payload !== undefined;
        const res = await t.app.inject({
          method,
          url: path + r.query,
          headers,
          ...(sendsBody && { payload: r.body.payload }),
        });

        const what = `${method} ${path.slice(0, 120)}${r.query.slice(0, 80)} as ${r.actor} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        const counts = tally.get(`${r.endpoint.method} ${r.endpoint.route}`) ?? {};
        counts[String(res.statusCode)] = (counts[String(res.statusCode)] ?? 0) + 1;
        tally.set(`${r.endpoint.method} ${r.endpoint.route}`, counts);

        expect(res.statusCode, what).toBeLessThan(500);
        // Authentication (and the admin check) come before the request is read.
        const body = res.statusCode >= 400 ? (JSON.parse(res.body) as { success?: unknown; message?: unknown }) : {};
        if (method === r.endpoint.method && !r.endpoint.public && !isRoutingRefusal(res.statusCode, body.message)) {
          if (!actor) expect(res.statusCode, what).toBe(401);
          else if (r.endpoint.route.startsWith('/api/admin/') && r.actor !== 'admin')
            expect(res.statusCode, what).toBe(403);
        }
        if (res.statusCode >= 400) {
          expect(res.headers['content-type'], what).toMatch(/^application\/json/);
          expect(body.success, what).toBe(false);
          expect(typeof body.message === 'string' && body.message.trim().length > 0, what).toBe(true);
          // Validation failures speak the user's words, on every endpoint.
          expect(res.body, what).not.toMatch(ZOD_DEFAULT_TEXT);
          // No stack frames ("    at fn (/path/file.ts:12:34)"), whatever the message echoes of the request.
          expect(res.body, what).not.toMatch(/\\n\s+at \S|\(\/[^)]*:\d+:\d+\)/);
        }
        if (r.endpoint.route === '/api/auth/logout' && res.statusCode === 200 && actor) await renewSession(r.actor);
      }),
      { numRuns: runsOn(backend), seed: SEED, endOnFailure: true },
    );

    // The run must have reached every route of the OpenAPI document, and most of them with more than a refusal.
    const summary = [...tally.entries()].map(([route, counts]) => `${route}: ${JSON.stringify(counts)}`).join('\n');
    const documented = documentedRoutes(t.app.swagger() as OpenApiDocument).map((d) => `${d.method} ${d.route}`);
    expect(
      documented.filter((route) => !tally.has(route)),
      summary,
    ).toEqual([]);
    for (const endpoint of endpoints) expect(tally.has(`${endpoint.method} ${endpoint.route}`), summary).toBe(true);
    if (process.env.FUZZ_SUMMARY) console.log(summary);
  }, 600_000);

  it('refuses a control character in any text field of any documented route with a 400 that names the field', async () => {
    // Registration is closed in this app (ALLOW_REGISTRATION off), which it says before reading the body.
    const textual = endpoints
      .filter((e) => e.route !== '/api/auth/register')
      .flatMap((endpoint) => endpoint.textFields.map((field) => ({ endpoint, field })));
    expect(textual.map((x) => `${x.endpoint.method} ${x.endpoint.route} ${x.field}`)).toEqual(
      expect.arrayContaining([
        'POST /api/notifications/subscriptions/remove endpoint',
        'POST /api/auth/login/2fa challenge',
        'GET /api/admin/audit user',
        'PUT /api/auth/profile bio',
      ]),
    );
    const request = fc
      .record({
        target: fc.constantFrom(...textual),
        actor: fc.constantFrom<ActorKind>('anonymous', 'user', 'admin'),
        bad: unacceptableControl,
      })
      .chain((base) => plausibleBody(base.target.endpoint.bodyFields ?? []).map((body) => ({ ...base, body })));
    await fc.assert(
      fc.asyncProperty(request, async ({ target, actor: chosen, bad, body }) => {
        // A caller the route lets in: validation comes only after authentication and the admin check.
        const kind = target.endpoint.public
          ? chosen
          : target.endpoint.route.startsWith('/api/admin/')
            ? 'admin'
            : chosen === 'anonymous'
              ? 'user'
              : chosen;
        const actor = kind === 'anonymous' ? undefined : actors[kind];
        const path = target.endpoint.route.replace(':id', actor?.user._id ?? ids['@victim'] ?? '');
        const inQuery = target.endpoint.queryFields?.includes(target.field) ?? false;
        const url = inQuery ? `${path}?${target.field}=${encodeURIComponent(bad)}` : path;
        const payload = inQuery ? undefined : JSON.stringify({ ...body, [target.field]: bad });
        const res = await t.app.inject({
          method: target.endpoint.method,
          url,
          headers: {
            ...(actor && { authorization: `Bearer ${actor.token}` }),
            ...(payload && { 'content-type': 'application/json' }),
          },
          ...(payload && { payload }),
        });
        const what = `${target.endpoint.method} ${url} ${payload ?? ''} as ${kind} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, what).toBe(400);
        const answer = JSON.parse(res.body) as { errors?: { msg: string; path?: string }[] };
        const refusal = answer.errors?.find((e) => e.path === target.field);
        expect(refusal?.msg, what).toMatch(/^[A-Z][\w .-]* must not contain control characters$/i);
      }),
      { numRuns: Math.min(400, runsOn(backend)), seed: SEED, endOnFailure: true },
    );
  }, 120_000);
});
