// Where web push may go, against a push service on loopback that must receive nothing: an endpoint that names or
// resolves to a loopback, private, link-local, shared or reserved address — however it is written — or carries
// credentials is refused when it is registered, refused again at send time when its name has moved inside since, and
// a send goes to the very address that was checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveSubscription } from '../../../server/db/repositories/push';
import {
  createPushService,
  ENDPOINT_REFUSALS,
  isPublicAddress,
  loadVapidKeys,
  testMessage,
  type ResolveHost,
} from '../../../server/notifications';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/app';
import { decryptPayload, PUSH_HOST, startPushEndpoint, type PushEndpoint } from './push-endpoint';

/** An address outside every special range; nothing is ever sent to it here (each test moves the name before a send). */
const PUBLIC = '93.184.215.14';
const INSIDE = ENDPOINT_REFUSALS.address;

describe('push endpoints that would reach inside', () => {
  let sink: PushEndpoint;
  let t: TestApp;
  let mallory: SignedIn;
  /** What the tests' names resolve to; a name not listed does not resolve. */
  const names = new Map<string, string[]>();
  const resolve: ResolveHost = async (hostname) => {
    const addresses = names.get(hostname);
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  beforeAll(async () => {
    sink = await startPushEndpoint();
    // The sink's certificate is trusted, so only the address rule stands between a request and the sink.
    t = await createTestApp('pglite', { build: { pushEgress: { ca: sink.ca, resolve } } });
    mallory = await t.createUser();
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const register = (endpoint: string) =>
    t.request('POST', '/api/notifications/subscriptions', {
      token: mallory.token,
      body: { endpoint, keys: sink.device().subscription.keys },
    });

  it('refuses loopback, private, link-local, shared and reserved addresses however written, and credentials', async () => {
    const port = sink.port;
    names.set('inside.example.test', ['127.0.0.1']);
    names.set('metadata.example.test', ['169.254.169.254']);
    names.set('mixed.example.test', [PUBLIC, '10.1.2.3']);
    names.set('six.example.test', ['fd00::1']);
    const refused: Array<[string, string]> = [
      [`https://127.0.0.1:${port}/internal-admin/delete-everything`, INSIDE],
      [`https://localhost:${port}/push/x`, INSIDE],
      [`https://[::1]:${port}/push/x`, INSIDE],
      [`https://2130706433:${port}/push/x`, INSIDE],
      [`https://0x7f.1:${port}/push/x`, INSIDE],
      [`https://127.1:${port}/push/x`, INSIDE],
      [`https://[::ffff:127.0.0.1]:${port}/push/x`, INSIDE],
      [`https://0.0.0.0:${port}/push/x`, INSIDE],
      ['https://10.0.0.1/push/x', INSIDE],
      ['https://172.16.5.4/push/x', INSIDE],
      ['https://192.168.1.1/push/x', INSIDE],
      ['https://100.64.0.1/push/x', INSIDE],
      ['https://169.254.169.254/latest/meta-data', INSIDE],
      ['https://[fe80::1]/push/x', INSIDE],
      ['https://[fc00::1]/push/x', INSIDE],
      ['https://[64:ff9b::7f00:1]/push/x', INSIDE],
      ['https://[2002:7f00:1::]/push/x', INSIDE],
      ['https://224.0.0.1/push/x', INSIDE],
      [`https://inside.example.test:${port}/push/x`, INSIDE],
      ['https://metadata.example.test/latest/meta-data', INSIDE],
      [`https://mixed.example.test:${port}/push/x`, INSIDE],
      ['https://six.example.test/push/x', INSIDE],
      // A name that does not resolve is refused in the same words: no telling which internal names exist.
      ['https://nowhere.example.test/push/x', INSIDE],
      [`https://user:pw@${PUSH_HOST}:${port}/push/x`, ENDPOINT_REFUSALS.credentials],
      [`https://token@${PUSH_HOST}/push/x`, ENDPOINT_REFUSALS.credentials],
    ];
    for (const [endpoint, message] of refused) {
      const res = await register(endpoint);
      expect(res.statusCode, `${endpoint} → ${res.body}`).toBe(400);
      expect(res.json().message, endpoint).toBe(message);
    }
    const prefs = await t.request('GET', '/api/notifications/preferences', { token: mallory.token });
    expect(prefs.json().devices).toBe(0);
    expect((await t.request('POST', '/api/notifications/test', { token: mallory.token })).statusCode).toBe(409);
    expect(sink.deliveries).toEqual([]);
  });

  it('checks again at send time: a name that has moved inside is not sent to, and is forgotten', async () => {
    names.set('moving.example.test', [PUBLIC]);
    const saved = await register(`https://moving.example.test:${sink.port}/push/moving`);
    expect(saved.statusCode, saved.body).toBe(201);
    names.set('moving.example.test', ['127.0.0.1']);
    const res = await t.request('POST', '/api/notifications/test', { token: mallory.token });
    // The same answer as for any device: nothing says that this one was refused.
    expect(res.statusCode).toBe(200);
    expect(res.json().devices).toBe(1);
    expect(sink.deliveries).toEqual([]);
    expect((await t.request('GET', '/api/notifications/preferences', { token: mallory.token })).json().devices).toBe(0);
    expect(t.logs.some((l) => l.includes('push endpoint not allowed at send time'))).toBe(true);
  });

  it('sends to the address it checked, whatever the name resolves to a moment later', async () => {
    // A name only this test resolves, first to the sink's address (allowed here), then inside the network.
    let lookups = 0;
    const rebinding: ResolveHost = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '127.0.0.1' : '10.9.9.9', family: 4 }];
    };
    const push = createPushService({
      db: t.db,
      keys: loadVapidKeys(t.config),
      logger: t.app.log,
      egress: { ca: sink.ca, resolve: rebinding, isAllowed: (a) => a === '127.0.0.1' },
    });
    const device = sink.device(`https://${PUSH_HOST}:${sink.port}`);
    const { endpoint, keys } = device.subscription;
    await saveSubscription(t.db, mallory.user._id, { endpoint, ...keys, userAgent: '' });
    const delivery = sink.next(device.id);
    const report = await push.send(mallory.user._id, testMessage());
    // The connection did not look the name up again (the system resolver does not know it at all): it went to the
    // checked address, with the name for TLS.
    expect(report).toEqual({ sent: 1, removed: 0, failed: 0 });
    expect(lookups).toBe(1);
    expect(JSON.parse(decryptPayload(device, (await delivery).body)).kind).toBe('test');
  });

  it('calls only public unicast addresses public', () => {
    const inside = ['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.1.1', '100.64.0.1', '0.0.0.0'];
    const reserved = ['255.255.255.255', '224.0.0.1', '192.0.2.1', '198.18.0.1', '240.0.0.1', '::', '::1', 'fe80::1'];
    const embedded = ['fd12::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:a00:1::', '2001::1'];
    for (const address of [...inside, ...reserved, ...embedded, 'not an address', ''])
      expect(isPublicAddress(address), address).toBe(false);
    for (const address of ['8.8.8.8', PUBLIC, '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(address), address).toBe(true);
  });
});
