// Generators of malformed requests for the API fuzz: near-valid bodies with one or more fields wrong, arbitrary
// JSON, broken JSON, wrong content types, oversized bodies, odd query strings, bad ids and bad tokens.
import fc from 'fast-check';
import { bodyFieldsOf, documentedRoutes, isTextField, type Method, type OpenApiDocument } from './openapi-routes';

export type { Method };

export interface Endpoint {
  method: Method;
  /** Route pattern, `:id` for the path parameter. */
  route: string;
  /** Answers without a token (declared `security: []`). */
  public: boolean;
  /** Field names of the body the route expects (from its schema in the OpenAPI document). */
  bodyFields?: string[];
  queryFields?: string[];
  /** The body and query fields that take free text. */
  textFields: string[];
}

/**
 * Every route of the app's OpenAPI document with the fields of its body and query string as the document states them,
 * so a new route is fuzzed with its own fields without editing this file; plus the document itself (hidden from it).
 */
export function endpointsOf(openApi: OpenApiDocument): Endpoint[] {
  const documented = documentedRoutes(openApi).map((route): Endpoint => {
    const bodyFields = bodyFieldsOf(route);
    const queryFields = Object.keys(route.query);
    const bodyText = bodyFields.filter((f) => isTextField(route.body?.properties?.[f] ?? {}));
    const queryText = queryFields.filter((f) => isTextField(route.query[f] ?? {}));
    return {
      method: route.method,
      route: route.route,
      public: route.public,
      ...(bodyFields.length > 0 && { bodyFields }),
      ...(queryFields.length > 0 && { queryFields }),
      textFields: [...bodyText, ...queryText],
    };
  });
  return [...documented, { method: 'GET', route: '/api/docs', public: true, textFields: [] }];
}

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\u202e\u0041\u0042',
  '😀'.repeat(50),
  'e\u0301\u0301\u0301',
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '../../../../etc/passwd',
  '%00',
  '%',
  '${jndi:ldap://127.0.0.1/a}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1F',
  '9'.repeat(400),
  'null',
  'true',
  'BTC/USDT ',
  'btc/usdt',
  'COMPLETED',
  'admin',
];

/** One control character (C0, DEL or C1; NUL most often, as PostgreSQL cannot store it). */
export const controlCharacter = fc.oneof(
  { weight: 2, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCharCode(c)) },
);
/** A string with at least one control character somewhere in it. */
export const withControlCharacter = fc
  .tuple(fc.string({ maxLength: 12 }), controlCharacter, fc.string({ maxLength: 12 }))
  .map(([before, control, after]) => before + control + after);
/** A control character that no field accepts, not even a multi-line one. */
export const unacceptableControl = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    controlCharacter.filter((c) => !['\t', '\n', '\r'].includes(c)),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, control, after]) => before + control + after);

const hugeString = fc
  .constantFrom(1_000, 10_000, 40_000)
  .chain((n) => fc.constantFrom('a'.repeat(n), 'é'.repeat(n), '\u{1F4A9}'.repeat(n / 2)));

export const weirdScalar = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  withControlCharacter,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 53), 0.1, 1e308, -1e-308),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

export const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: weirdScalar },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.array(weirdScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), weirdScalar, { maxKeys: 3 }) },
);

/** Plausible values for the contract's fields, so that one wrong field among right ones gets through to deeper code. */
const PLAUSIBLE: Record<string, fc.Arbitrary<unknown>> = {
  username: fc.constantFrom('admin@example.test', 'someone', 'ab', 'a_valid_name'),
  email: fc.constantFrom('x@example.test', 'not-an-email', 'a@b.c'),
  password: fc.constantFrom('password-123', 'short', ''),
  currentPassword: fc.constantFrom('password-123', ''),
  newPassword: fc.constantFrom('password-123', 'another-password-9', 'short'),
  firstName: fc.constantFrom('Al', 'A', ''),
  lastName: fc.constantFrom('Smith', 'B'),
  phone: fc.constantFrom('+1 555 123 4567', '0123', '+4915112345678'),
  bio: fc.constantFrom('hi', 'x'.repeat(501)),
  role: fc.constantFrom('user', 'admin', 'root', ''),
  maxExposure: fc.constantFrom(0, 1000, -5, 1e12),
  minSpread: fc.constantFrom(0.002, 0.1, 0.11, -0.1, 5),
  maxLoss: fc.constantFrom(0, 100, -1),
  tradingEnabled: fc.boolean(),
  binanceApiKey: fc.constantFrom('KEY123', '', 'has space'),
  binanceSecretKey: fc.constantFrom('SECRET456', ''),
  derivToken: fc.constantFrom('tok789', ''),
  derivAppId: fc.constantFrom('1089', 'abc', ''),
  symbol: fc.constantFrom('BTC/USDT', 'ETH/USDT', 'DOGE/USDT'),
  totalAmount: fc.constantFrom(10, 0, -10, 1e7, 1e8),
  status: fc.constantFrom('pending', 'completed', 'failed', 'cancelled', 'open'),
  actualProfit: fc.constantFrom(0, 1.5, -3),
  exchange: fc.constantFrom('binance', 'deriv', 'kraken'),
  apiKey: fc.constantFrom('k', ''),
  secretKey: fc.constantFrom('s', ''),
  token: fc.constantFrom('t', ''),
  appId: fc.constantFrom('1', 'x'),
  page: fc.constantFrom(1, 2, 0, -1),
  limit: fc.constantFrom(20, 100, 101, 0),
  search: fc.constantFrom('adm', ''),
  from: fc.constantFrom(
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00+02:00',
    '2026-01-01',
    '2026-02-30T00:00:00Z',
    '1970-01-01T00:00:00Z',
    'yesterday',
    '',
  ),
  endpoint: fc.constantFrom(
    'https://push.example.com/send/abc',
    'https://127.0.0.1/push',
    'https://user:pw@push.example.com/a',
    'http://push.example.com/x',
    '',
  ),
  keys: fc.constantFrom({ p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) }, { p256dh: 'short' }, null),
  expirationTime: fc.constantFrom(null, 0, -1),
  challenge: fc.constantFrom('made-up', 'a.b.c', ''),
  code: fc.constantFrom('123456', 'abcde-fghij', '12345', ''),
  reason: fc.constantFrom('fuzz', ''),
  user: fc.constantFrom('adm', ''),
  action: fc.constantFrom('sign_in', 'nope', ''),
  closeTrades: fc.constantFrom('true', 'false', 'yes'),
  to: fc.constantFrom(
    '2026-01-01T01:00:00Z',
    '2027-06-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '2025-12-31T00:00:00Z',
    'now',
  ),
};

/** An object with some of the route's fields, each with a plausible value (right or wrong, never oversized). */
export function plausibleBody(fields: string[]): fc.Arbitrary<Record<string, unknown>> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) shape[field] = PLAUSIBLE[field] ?? fc.string({ maxLength: 8 });
  return fc.record(shape, { requiredKeys: [] });
}

/** An object with the route's fields, each plausible, weird or missing, plus sometimes an unknown field. */
function nearValidBody(fields: string[]): fc.Arbitrary<Record<string, unknown>> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) {
    shape[field] = fc.oneof(
      { weight: 3, arbitrary: PLAUSIBLE[field] ?? weirdScalar },
      { weight: 1, arbitrary: weirdValue },
    );
  }
  const unknownField = fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), weirdValue) },
  );
  return fc
    .tuple(fc.record(shape, { requiredKeys: [] }), unknownField)
    .map(([body, extra]) => (extra ? { ...body, [extra[0]]: extra[1] } : body));
}

const BROKEN_JSON = [
  '{',
  '{"a":',
  '[1,2',
  '{"username": "x",}',
  "{'a': 1}",
  'undefined',
  '{"a": NaN}',
  '\u0000',
  '{"__proto__": {"x": 1}}',
  'null',
  '"just a string"',
  '12',
  '[]',
];

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zzz',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  'json',
];

export interface GeneratedBody {
  /** The payload as sent, or undefined for none. */
  payload: string | undefined;
  contentType: string | undefined;
}

export function bodyFor(endpoint: Endpoint, bodyLimit: number): fc.Arbitrary<GeneratedBody> {
  const json = (value: unknown) => JSON.stringify(value) ?? 'null';
  const asJson = (arb: fc.Arbitrary<unknown>) =>
    arb.map((v) => ({ payload: json(v), contentType: 'application/json' as string | undefined }));
  return fc.oneof(
    { weight: 5, arbitrary: asJson(nearValidBody(endpoint.bodyFields ?? Object.keys(PLAUSIBLE).slice(0, 4))) },
    { weight: 2, arbitrary: asJson(fc.jsonValue({ maxDepth: 3 })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...BROKEN_JSON).map((payload) => ({ payload, contentType: 'application/json' })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(nearValidBody(endpoint.bodyFields ?? ['a']), fc.constantFrom(...CONTENT_TYPES))
        .map(([value, contentType]) => ({ payload: json(value), contentType })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({ payload: `{"a":"${'x'.repeat(bodyLimit + 10)}"}`, contentType: 'application/json' }),
    },
    { weight: 1, arbitrary: fc.constant({ payload: '', contentType: 'application/json' }) },
    { weight: 2, arbitrary: fc.constant({ payload: undefined, contentType: undefined }) },
  );
}

const ODD_QUERIES = [
  '?',
  '?&&&',
  '?==',
  '?page=1&page=2',
  '?limit=',
  '?page[]=1',
  '?status[0]=pending',
  '?__proto__[x]=1',
  '?constructor[prototype][x]=1',
  '?%E0%A4%A',
  '?page=1e3',
  '?page=-1',
  '?page=99999999999999999999999',
  '?limit=20.0',
  '?symbol=BTC%2FUSDT&symbol=ETH%2FUSDT',
  '?search=%00',
  '?role=ADMIN',
  `?search=${'s'.repeat(5000)}`,
];

export function queryFor(endpoint: Endpoint): fc.Arbitrary<string> {
  const fields = [...(endpoint.queryFields ?? []), 'page', 'x'];
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 10 })),
    fc
      .oneof(
        PLAUSIBLE.status as fc.Arbitrary<unknown>,
        PLAUSIBLE.symbol as fc.Arbitrary<unknown>,
        PLAUSIBLE.from as fc.Arbitrary<unknown>,
        PLAUSIBLE.to as fc.Arbitrary<unknown>,
        weirdScalar,
      )
      .map(String),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc
        .array(pair, { minLength: 1, maxLength: 4 })
        .map((pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`),
    },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_QUERIES) },
  );
}

/** Path ids: real ones (resolved by the test: SELF, a victim, a trade of the signed-in user) and bad ones. */
export const idArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('@self', '@victim', '@trade', '@other-trade') },
  { weight: 2, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.constantFrom(...NASTY_STRINGS),
        withControlCharacter,
        fc.string({ maxLength: 60 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
      )
      .map((s) => encodeURIComponent(s)),
  },
  { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2F', 'a%20b', '123', '-1', `${'0'.repeat(2000)}`) },
);

export type ActorKind = 'anonymous' | 'user' | 'other' | 'admin' | 'garbage';
export const actorArbitrary = fc.constantFrom<ActorKind>('anonymous', 'user', 'other', 'admin', 'garbage');

/** Authorization header values that must never authenticate (printable ASCII: what an HTTP header can carry). */
export const garbageAuthorization = fc.oneof(
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'Basic YWRtaW46YWRtaW4=',
    'bearer x',
    'Bearer a.b.c',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    'Token abc',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, 'x')}`),
  fc.constant(`Bearer ${'A'.repeat(8000)}`),
);

/** zod's own wording, which must never reach a user (contract/field-messages.ts words every schema's failures). */
export const ZOD_DEFAULT_TEXT =
  /Too (big|small): expected|Invalid input: expected|Invalid option: expected|Unrecognized key|Invalid (UUID|email address|string)/;
