// Scale-out over the real Redis at 127.0.0.1:6379: two gateway instances in two processes sharing a channel prefix
// unique to this run. An event raised on one reaches clients connected to the other, and only the right ones.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userRoom } from '../../../contract';
import type { EngineEvent } from '../../../server/engine/events';
import { client, closeClients, collect, connected, join, next, opportunity, price, trade } from './harness';
import type { TestClient } from './harness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const key = `arb-test-${process.pid}-${Date.now()}`;
const fixture = fileURLToPath(new URL('./fixtures/instance.ts', import.meta.url));

interface Instance {
  child: ChildProcess;
  url: string;
  emit(event: EngineEvent): void;
  send(command: object): void;
  /** Sends a command and resolves on the instance's next message (its answer). */
  ask(command: object): Promise<unknown>;
}

async function startInstance(): Promise<Instance> {
  const child = fork(fixture, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, REDIS_URL, REDIS_KEY: key },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`instance exited with ${String(code)}`))),
  ])) as [{ type: 'listening'; port: number }];
  return {
    child,
    url: `http://127.0.0.1:${message.port}`,
    emit: (event) => void child.send({ type: 'emit', event }),
    send: (command) => void child.send(command),
    ask: (command) => {
      const answered = once(child, 'message');
      child.send(command);
      return answered;
    },
  };
}

let engineSide: Instance;
let apiSide: Instance;

beforeAll(async () => {
  [engineSide, apiSide] = await Promise.all([startInstance(), startInstance()]);
});
afterEach(() => closeClients());
afterAll(async () => {
  await Promise.all(
    [engineSide, apiSide].filter(Boolean).map(async ({ child }) => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.send({ type: 'stop' });
      await exited;
    }),
  );
});

async function signedIn(url: string, userId: string): Promise<TestClient> {
  const socket = client(url, { token: `token:${userId}` });
  await connected(socket);
  expect(await join(socket, userRoom(userId))).toEqual({ ok: true });
  return socket;
}

describe('Redis adapter across two processes', () => {
  it("carries a user's event from the engine's instance to that user's socket on the other instance only", async () => {
    const alice = await signedIn(apiSide.url, 'alice');
    const bob = await signedIn(apiSide.url, 'bob');
    const bobTrades = collect(bob, 'new_trade');
    const aliceTrade = next(alice, 'new_trade');
    const bobMarker = next(bob, 'arbitrage_opportunity');
    engineSide.emit({ type: 'new_trade', userId: 'alice', trade: trade('alice', 'across') });
    engineSide.emit({ type: 'arbitrage_opportunity', opportunity: opportunity(0.004) });
    expect((await aliceTrade).tradeId).toBe('across');
    await bobMarker;
    expect(bobTrades).toEqual([]);
  });

  it('broadcasts prices to signed-in clients on both instances', async () => {
    const local = await signedIn(engineSide.url, 'carol');
    const remote = await signedIn(apiSide.url, 'dave');
    const heard = [next(local, 'priceUpdate'), next(remote, 'priceUpdate')];
    engineSide.emit({ type: 'priceUpdate', price: price('BTC/USDT', 61_000) });
    for (const update of await Promise.all(heard))
      expect(update).toMatchObject({ symbol: 'BTC/USDT', binance: 61_000 });
  });

  it("disconnects a revoked session's socket on another instance when one instance asks", async () => {
    const erin = await signedIn(apiSide.url, 'erin');
    const frank = await signedIn(apiSide.url, 'frank');
    const reason = new Promise((resolve) => erin.once('disconnect', resolve));
    await Promise.all([engineSide, apiSide].map((instance) => instance.ask({ type: 'revoke', token: 'token:erin' })));
    engineSide.send({ type: 'revalidate', userId: 'erin' });
    expect(await reason).toBe('io server disconnect');
    expect(frank.connected).toBe(true);
  });

  // Last: it stops the engine-side instance.
  it("shutting one instance down leaves the other instance's clients connected", async () => {
    const grace = await signedIn(apiSide.url, 'grace');
    const exited = once(engineSide.child, 'exit');
    engineSide.send({ type: 'stop' });
    await exited;
    // A round trip after the other instance is gone: grace is still connected and served.
    expect(await join(grace, userRoom('grace'))).toEqual({ ok: true });
    expect(grace.connected).toBe(true);
  });
});
