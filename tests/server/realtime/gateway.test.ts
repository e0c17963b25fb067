// The gateway over real sockets: handshake, revocation, room authorization, fan-out to rooms, price coalescing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userRoom } from '../../../contract';
import { MAX_REFUSED_ROOM_REQUESTS, ROOM_REFUSED, UNAUTHORIZED } from '../../../server/realtime';
import {
  client,
  closeClients,
  collect,
  connected,
  join,
  next,
  opportunity,
  price,
  refusal,
  startGateway,
  trade,
} from './harness';
import type { Gateway, TestClient } from './harness';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway();
  gateway.tokens.set('alice-token', { id: 'alice', role: 'user', sessionId: 's-alice' });
  gateway.tokens.set('bob-token', { id: 'bob', role: 'user', sessionId: 's-bob' });
  gateway.tokens.set('admin-token', { id: 'root', role: 'admin', sessionId: 's-root' });
});
afterEach(() => closeClients());
afterAll(async () => {
  await gateway.close();
});

async function signedIn(token: string, joinOwn?: string): Promise<TestClient> {
  const socket = client(gateway.url, { token });
  await connected(socket);
  if (joinOwn) expect(await join(socket, userRoom(joinOwn))).toEqual({ ok: true });
  return socket;
}

describe('handshake', () => {
  it('accepts a valid token from auth.token, over websocket and over polling', async () => {
    await connected(client(gateway.url, { token: 'alice-token' }));
    await connected(client(gateway.url, { token: 'alice-token', transport: 'polling' }));
  });

  it('accepts a valid token from an Authorization: Bearer header', async () => {
    await connected(client(gateway.url, { headers: { Authorization: 'Bearer bob-token' } }));
  });

  it('refuses a connection without a token, with an invalid token, or with a revoked one', async () => {
    expect(await refusal(client(gateway.url))).toBe(UNAUTHORIZED);
    expect(await refusal(client(gateway.url, { token: '' }))).toBe(UNAUTHORIZED);
    expect(await refusal(client(gateway.url, { token: 'forged' }))).toBe(UNAUTHORIZED);
    expect(await refusal(client(gateway.url, { headers: { Authorization: 'Basic YWxpY2U6eA==' } }))).toBe(UNAUTHORIZED);
    gateway.tokens.set('short-lived', { id: 'carol' });
    await connected(client(gateway.url, { token: 'short-lived' }));
    gateway.tokens.delete('short-lived');
    expect(await refusal(client(gateway.url, { token: 'short-lived' }))).toBe(UNAUTHORIZED);
  });

  it("re-checks only the named user's sockets when a revocation names one", async () => {
    gateway.tokens.set('ivan-token', { id: 'ivan' });
    gateway.tokens.set('judy-token', { id: 'judy' });
    const ivan = await signedIn('ivan-token');
    const judy = await signedIn('judy-token');
    const reason = new Promise((resolve) => ivan.once('disconnect', resolve));
    gateway.tokens.delete('ivan-token');
    gateway.tokens.delete('judy-token'); // revoked too, but not named: left to the periodic check
    gateway.checked.length = 0;
    await gateway.realtime.revalidate('ivan');
    expect(await reason).toBe('io server disconnect');
    expect(gateway.checked).toEqual(['ivan-token']);
    expect(judy.connected).toBe(true);
  });

  it('offers no namespace but the main one', async () => {
    expect(await refusal(client(`${gateway.url}/admin`, { token: 'admin-token' }))).toBe('Invalid namespace');
  });

  it('disconnects a connected socket once its session is revoked', async () => {
    gateway.tokens.set('dave-token', { id: 'dave' });
    const dave = await signedIn('dave-token', 'dave');
    const alice = await signedIn('alice-token');
    const reason = new Promise((resolve) => dave.once('disconnect', resolve));
    gateway.tokens.delete('dave-token');
    await gateway.realtime.revalidate();
    expect(await reason).toBe('io server disconnect');
    expect(alice.connected).toBe(true);
    expect(gateway.logs.some((r) => r.level === 'info' && (r.obj as { userId?: string }).userId === 'dave')).toBe(true);
  });
});

describe('rooms', () => {
  it('lets a user join and leave only its own room', async () => {
    const alice = await signedIn('alice-token');
    expect(await join(alice, userRoom('alice'))).toEqual({ ok: true });
    expect(await alice.emitWithAck('leave_room', userRoom('alice'))).toEqual({ ok: true });
  });

  it("refuses another user's room, and logs who asked for what", async () => {
    const alice = await signedIn('alice-token');
    expect(await join(alice, userRoom('bob'))).toEqual({ ok: false, message: ROOM_REFUSED });
    expect(await join(alice, 'signed-in')).toEqual({ ok: false, message: ROOM_REFUSED });
    expect(await alice.emitWithAck('leave_room', userRoom('bob'))).toEqual({ ok: false, message: ROOM_REFUSED });
    // Not even an admin may listen to another user's events.
    const admin = await signedIn('admin-token');
    expect(await join(admin, userRoom('alice'))).toEqual({ ok: false, message: ROOM_REFUSED });
    const refusals = gateway.logs.filter((r) => r.level === 'warn').map((r) => r.obj);
    expect(refusals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userId: 'alice', room: 'user:bob', action: 'join' }),
        expect.objectContaining({ userId: 'alice', room: 'user:bob', action: 'leave' }),
        expect.objectContaining({ userId: 'root', room: 'user:alice', action: 'join' }),
      ]),
    );
  });

  it('disconnects a socket that keeps asking for rooms it may not have', async () => {
    const alice = await signedIn('alice-token');
    const reason = new Promise((resolve) => alice.once('disconnect', resolve));
    for (let i = 1; i < MAX_REFUSED_ROOM_REQUESTS; i++) {
      expect(await join(alice, userRoom(`victim${i}`))).toEqual({ ok: false, message: ROOM_REFUSED });
    }
    expect(alice.connected).toBe(true);
    alice.emit('join_room', userRoom('one-too-many'));
    expect(await reason).toBe('io server disconnect');
    expect(gateway.logs.some((r) => r.msg === 'realtime: too many refused room requests, socket disconnected')).toBe(
      true,
    );
  });

  it('refuses a room that is not a string and survives a request without an ack', async () => {
    const alice = await signedIn('alice-token');
    expect(await alice.emitWithAck('join_room', { $ne: null } as unknown as string)).toEqual({
      ok: false,
      message: ROOM_REFUSED,
    });
    alice.emit('join_room', userRoom('bob'));
    alice.emit('join_room', userRoom('alice'));
    // Both ackless requests were handled (in order) before this one is answered.
    expect(await join(alice, userRoom('alice'))).toEqual({ ok: true });
    expect(alice.connected).toBe(true);
  });
});

describe('fan-out', () => {
  it("delivers a user's events to that user only", async () => {
    const alice = await signedIn('alice-token', 'alice');
    const bob = await signedIn('bob-token', 'bob');
    const bobHeard = ['new_trade', 'trade_updated', 'balance_updated', 'stats_updated', 'notice'].map((event) =>
      collect(bob, event as 'new_trade'),
    );
    const aliceTrade = next(alice, 'new_trade');
    const aliceUpdate = next(alice, 'trade_updated');
    const aliceBalance = next(alice, 'balance_updated');
    const aliceStats = next(alice, 'stats_updated');
    const aliceNotice = next(alice, 'notice');
    const bobMarker = next(bob, 'arbitrage_opportunity');

    gateway.events.next({ type: 'new_trade', userId: 'alice', trade: trade('alice', 't1') });
    gateway.events.next({
      type: 'trade_updated',
      userId: 'alice',
      trade: { ...trade('alice', 't1'), status: 'completed' },
    });
    gateway.events.next({ type: 'balance_updated', userId: 'alice', balance: { netProfit: 1.5 } });
    gateway.events.next({ type: 'stats_updated', userId: 'alice', stats: { totalTrades: 1 } });
    gateway.events.next({ type: 'notice', userId: 'alice', notice: { level: 'warning', message: 'Trading stopped' } });
    // A broadcast after them: a socket hears its packets in order, so once bob has it, bob has heard all he will.
    gateway.events.next({ type: 'arbitrage_opportunity', opportunity: opportunity(0.004) });

    expect((await aliceTrade).tradeId).toBe('t1');
    expect((await aliceUpdate).status).toBe('completed');
    expect(await aliceBalance).toEqual({ netProfit: 1.5 });
    expect(await aliceStats).toEqual({ totalTrades: 1 });
    expect(await aliceNotice).toEqual({ level: 'warning', message: 'Trading stopped' });
    await bobMarker;
    expect(bobHeard.flat()).toEqual([]);
  });

  it('sends nothing of a user to a socket of that user that has left the room', async () => {
    const alice = await signedIn('alice-token', 'alice');
    expect(await alice.emitWithAck('leave_room', userRoom('alice'))).toEqual({ ok: true });
    const trades = collect(alice, 'new_trade');
    const marker = next(alice, 'arbitrage_opportunity');
    gateway.events.next({ type: 'new_trade', userId: 'alice', trade: trade('alice', 't2') });
    gateway.events.next({ type: 'arbitrage_opportunity', opportunity: opportunity(0.005) });
    await marker;
    expect(trades).toEqual([]);
  });

  it('broadcasts prices and opportunities to every signed-in client, joined to a room or not', async () => {
    const sockets = await Promise.all([
      signedIn('alice-token', 'alice'),
      signedIn('bob-token'),
      signedIn('admin-token'),
    ]);
    const prices = sockets.map((socket) => next(socket, 'priceUpdate'));
    const opportunities = sockets.map((socket) => next(socket, 'arbitrage_opportunity'));
    gateway.events.next({ type: 'priceUpdate', price: price('ETH/USDT', 3000) });
    gateway.events.next({ type: 'arbitrage_opportunity', opportunity: opportunity(-0.003) });
    for (const heard of await Promise.all(prices)) expect(heard).toMatchObject({ symbol: 'ETH/USDT', binance: 3000 });
    for (const heard of await Promise.all(opportunities))
      expect(heard).toMatchObject({ spread: -0.003, direction: 'binance-rich' });
  });

  it("broadcasts a venue's health to every signed-in client", async () => {
    const sockets = await Promise.all([signedIn('alice-token', 'alice'), signedIn('bob-token')]);
    const heard = sockets.map((socket) => next(socket, 'venue_health'));
    const at = new Date().toISOString();
    const health = {
      venue: 'deriv',
      state: 'disconnected',
      since: at,
      latencyMs: 41.5,
      latencyAt: at,
      probe: "Deriv's ping over the market-data websocket",
      lastError: { message: 'Connection to Deriv lost', at },
      reportedAt: at,
    } as const;
    gateway.events.next({ type: 'venue_health', health });
    for (const h of await Promise.all(heard)) expect(h).toEqual(health);
  });
});

describe('watching pairs', () => {
  it("sends a connection only the prices of the pairs it watches, every pair's until it asks, and every pair's again on null", async () => {
    const alice = await signedIn('alice-token', 'alice');
    const bob = await signedIn('bob-token');
    const heardByAlice = collect(alice, 'priceUpdate');
    const heardByBob = collect(bob, 'priceUpdate');

    expect(await alice.emitWithAck('watch_pairs', ['LTC/USDT', 'BTC/USDT'])).toEqual({
      ok: true,
      pairs: ['LTC/USDT', 'BTC/USDT'],
    });
    for (const symbol of ['ETH/USDT', 'BTC/USDT', 'SOL/USDT', 'LTC/USDT'] as const)
      gateway.events.next({ type: 'priceUpdate', price: price(symbol, 100) });
    // An opportunity is for everyone still: it follows the prices on the same connection, so once it is heard every
    // price before it has been too.
    const last = Promise.all([next(alice, 'arbitrage_opportunity'), next(bob, 'arbitrage_opportunity')]);
    gateway.events.next({ type: 'arbitrage_opportunity', opportunity: opportunity(0.004) });
    await last;
    expect(heardByAlice.map((p) => p.symbol)).toEqual(['BTC/USDT', 'LTC/USDT']);
    expect(heardByBob.map((p) => p.symbol)).toEqual(['ETH/USDT', 'BTC/USDT', 'SOL/USDT', 'LTC/USDT']);

    // A screen without prices watches none; null is every pair again.
    expect(await alice.emitWithAck('watch_pairs', [])).toEqual({ ok: true, pairs: [] });
    gateway.events.next({ type: 'priceUpdate', price: price('BTC/USDT', 101) });
    expect(await alice.emitWithAck('watch_pairs', null)).toEqual({ ok: true, pairs: null });
    const again = next(alice, 'priceUpdate');
    gateway.events.next({ type: 'priceUpdate', price: price('ETH/USDT', 3001) });
    expect(await again).toMatchObject({ symbol: 'ETH/USDT', binance: 3001 });
    expect(heardByAlice.map((p) => p.symbol)).toEqual(['BTC/USDT', 'LTC/USDT', 'ETH/USDT']);
  });

  it('refuses what is not a list of known pairs and keeps what was watched', async () => {
    const alice = await signedIn('alice-token');
    await alice.emitWithAck('watch_pairs', ['ETH/USDT']);
    const refused = { ok: false, message: 'Pairs must be a list of known pairs, or null for every pair' };
    for (const bad of [['XYZ/USDT'], 'BTC/USDT', [42], ['BTC/USDT\u0000'], Array(40).fill('BTC/USDT')])
      expect(await alice.emitWithAck('watch_pairs', bad as never)).toEqual(refused);
    // A request without an ack changes what is watched all the same, and the socket stays up.
    alice.emit('watch_pairs', ['BTC/USDT']);
    // The socket's events are handled in order: once a later request is answered, the watch has been taken.
    expect(await join(alice, userRoom('alice'))).toEqual({ ok: true });
    const heard = next(alice, 'priceUpdate');
    gateway.events.next({ type: 'priceUpdate', price: price('ETH/USDT', 3000) });
    gateway.events.next({ type: 'priceUpdate', price: price('BTC/USDT', 60_000) });
    expect(await heard).toMatchObject({ symbol: 'BTC/USDT' });
    expect(alice.connected).toBe(true);
  });
});

describe('price coalescing over the wire', () => {
  it('turns a burst of ticks into the first and the latest per symbol', async () => {
    const coalescing = await startGateway({ priceHz: 4 });
    try {
      coalescing.tokens.set('t', { id: 'erin' });
      const erin = client(coalescing.url, { token: 't' });
      await connected(erin);
      const heard = collect(erin, 'priceUpdate');
      const latestBtc = new Promise<void>((resolve) =>
        erin.on('priceUpdate', (p) => p.binance === 60_009 && resolve()),
      );
      const firstEth = next(erin, 'priceUpdate');
      for (let i = 0; i < 10; i++)
        coalescing.events.next({ type: 'priceUpdate', price: price('BTC/USDT', 60_000 + i) });
      coalescing.events.next({ type: 'priceUpdate', price: price('ETH/USDT', 3000) });
      await firstEth;
      await latestBtc;
      expect(heard.map((p) => [p.symbol, p.binance])).toEqual([
        ['BTC/USDT', 60_000],
        ['ETH/USDT', 3000],
        ['BTC/USDT', 60_009],
      ]);
    } finally {
      closeClients();
      await coalescing.close();
    }
  });
});

describe('revocation during a handshake', () => {
  it('refuses a handshake whose token was revoked while it was being checked', async () => {
    let lookedUp!: () => void;
    let release!: () => void;
    const lookupDone = new Promise<void>((resolve) => (lookedUp = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const racing = await startGateway({
      afterLookup: async (token) => {
        if (token !== 'slow-token' || !first) return;
        first = false;
        lookedUp();
        await held;
      },
    });
    try {
      racing.tokens.set('slow-token', { id: 'henry' });
      const outcome = refusal(client(racing.url, { token: 'slow-token' }));
      await lookupDone; // the check has read a live session and is still running
      racing.tokens.delete('slow-token');
      await racing.realtime.revalidate(); // finds no socket of henry's yet
      release(); // the stale answer arrives after the revocation
      expect(await outcome).toBe(UNAUTHORIZED);
    } finally {
      closeClients();
      await racing.close();
    }
  });
});

describe('periodic revalidation', () => {
  it('drops a revoked session on its own, without being asked', async () => {
    const checking = await startGateway({ revalidateMs: 20 });
    try {
      checking.tokens.set('frank-token', { id: 'frank' });
      const frank = client(checking.url, { token: 'frank-token' });
      await connected(frank);
      const reason = new Promise((resolve) => frank.once('disconnect', resolve));
      checking.tokens.delete('frank-token');
      expect(await reason).toBe('io server disconnect');
    } finally {
      closeClients();
      await checking.close();
    }
  });
});
