// The engine with engine shards over in-memory parts: it trades only the users of the shards it holds, and handing a
// shard over (drain) stops new trades for its users at once but resolves only once their open trades have ended, so
// the lock is released only when no trade of theirs is worked on here.
import { afterEach, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import type { EngineEvent } from '../../../server/engine/events';
import type { Leadership, LeadershipHandlers } from '../../../server/engine/leader';
import { shardOf } from '../../../server/engine/shards';
import { memoryEngine, tradeEvent, type MemoryEngine } from './memory-engine';

const tradeOf = (e: EngineEvent): Trade => (e as { trade: Trade }).trade;
const bothOpen = (userId: string) => (e: EngineEvent) =>
  e.type === 'trade_updated' && e.userId === userId && tradeOf(e).legs.every((l) => l.status === 'open');
// Two users on shard 0 and one on shard 1 of 2.
const pick = (shard: number, n: number) =>
  Array.from({ length: 50 }, (_, i) => `user-${i}`)
    .filter((id) => shardOf(id, 2) === shard)
    .slice(0, n);
const [alice, carol] = pick(0, 2) as [string, string];
const [bob] = pick(1, 1) as [string];

let m: MemoryEngine | null = null;
afterEach(async () => {
  await m?.engine.stop();
  m = null;
});

describe('the engine with engine shards', () => {
  it('trades the users of its shards only, and hands a shard over once its open trades have ended', async () => {
    m = await memoryEngine();
    for (const id of [alice, bob, carol]) m.users.set(id);
    m.quote('BTC/USDT', 60_000, 0);
    m.quote('ETH/USDT', 3_000, 0);
    let handlers!: LeadershipHandlers;
    const leadership: Leadership = {
      shards: 2,
      start: async (h) => {
        handlers = h;
        await h.onAcquired([0]);
      },
      stop: async () => undefined,
    };
    await m.engine.start({ logger: m.logger, leadership });
    expect(m.engine.heldShards).toEqual({ held: [0], count: 2 });
    expect(m.engine.tradesFor(bob)).toBe(false);

    m.quote('BTC/USDT', 60_000, 0.008);
    await m.waitFor(bothOpen(alice));
    await m.waitFor(bothOpen(carol));
    await m.engine.idle();
    expect(m.events.some((e) => 'userId' in e && e.userId === bob)).toBe(false);
    const refused = await m.engine.createManualTrade(bob, 'ETH/USDT', 100);
    expect(refused).toEqual({
      ok: false,
      status: 503,
      message: 'Your trading runs on another engine instance. Try again in a moment.',
    });

    // Shard 0 is handed over: nothing new for its users from now on, and the drain waits for their open trades.
    let drained = false;
    const drain = handlers.drain(0).then(() => (drained = true));
    expect(m.engine.tradesFor(alice)).toBe(false);
    m.quote('ETH/USDT', 3_000, 0.008);
    await m.engine.idle();
    expect(m.events.filter((e) => e.type === 'new_trade' && e.trade.symbol === 'ETH/USDT')).toEqual([]);
    expect(drained).toBe(false);
    m.quote('BTC/USDT', 60_000, 0.0002);
    await m.waitFor(tradeEvent('completed', alice));
    await m.waitFor(tradeEvent('completed', carol));
    await drain;
    expect(m.engine.heldShards.held).toEqual([]);
  });
});
