// An unreachable REDIS_URL: the adapter keeps trying with growing delays and says so once per connection, instead of
// a warning per connection several times a second.
import { setTimeout as sleep } from 'node:timers/promises';
import { Server } from 'socket.io';
import { describe, expect, it } from 'vitest';
import { REDIS_MAX_RETRY_MS, redisRetryDelay, useRedisAdapter } from '../../../server/realtime/redis';
import type { RealtimeServer } from '../../../server/realtime/types';
import { recordingLogger } from './harness';

describe('unreachable Redis', () => {
  it('retries with delays that grow to a minute', () => {
    const delays = Array.from({ length: 12 }, (_, i) => redisRetryDelay(i + 1));
    expect(delays.slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0);
    expect(delays.at(-1)).toBe(REDIS_MAX_RETRY_MS);
  });

  it('warns once per connection while it stays unreachable', async () => {
    const io = new Server() as RealtimeServer;
    const { logger, records } = recordingLogger();
    // Port 1 on loopback: nothing listens, every attempt is refused at once.
    const fanout = useRedisAdapter(io, 'redis://127.0.0.1:1', `arb-outage-${process.pid}`, logger);
    // Long enough for several attempts with the old fixed short delays (tens of warnings), and for three with backoff.
    await sleep(2_500);
    await fanout.close();
    // Not io.close(): this server was never attached to an HTTP server (it would throw closing one).
    const warnings = records.filter((r) => r.level === 'warn');
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.length).toBeLessThanOrEqual(2);
    expect(warnings[0]?.msg).toMatch(/retrying with growing delays/);
  }, 20_000);
});
