// The poller alone against the fake Bot API: it polls only while this instance leads the engine, lets go of a poll in
// flight when the lead is lost, confirms what it handled through the offset, and stops on a refused token.
import { Api } from 'grammy';
import type { Update } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPoller } from '../../../server/telegram/poller';
import { startFakeTelegram, type FakeTelegram } from '../../fakes/telegram/server';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('telegram poller', () => {
  let tg: FakeTelegram;
  beforeAll(async () => {
    tg = await startFakeTelegram();
  });
  afterAll(async () => {
    await tg?.close();
  });

  it('polls only while leading, handles each update once, and lets go of the poll when the lead is lost', async () => {
    let leading = false;
    const checks: number[] = [];
    const handled: Update[] = [];
    let handledOne: () => void = () => undefined;
    const api = new Api(tg.token, { apiRoot: tg.apiUrl });
    const before = tg.calls.filter((c) => c.method === 'getUpdates').length;
    const poller = startPoller({
      api,
      handle: async (u) => {
        handled.push(u);
        handledOne();
      },
      isLeader: () => leading,
      logger: quiet,
      timeoutSeconds: 30,
      leaderCheckMs: 20,
      wait: (ms) => {
        checks.push(ms);
        return new Promise((r) => setTimeout(r, 5));
      },
    });
    // Standing by: it asks whether it leads, and never Telegram.
    while (checks.length < 5) await new Promise((r) => setTimeout(r, 5));
    expect(tg.calls.filter((c) => c.method === 'getUpdates').length).toBe(before);

    leading = true;
    const chat = { id: 42, firstName: 'Ada' };
    const got = new Promise<void>((r) => (handledOne = r));
    const id = tg.userSends(chat, 'hello');
    await got;
    expect(handled.map((u) => u.update_id)).toEqual([id]);
    // The next poll confirms it: its offset is past the handled update.
    const next = await tg.waitForCall('getUpdates', before + 2);
    expect(next.offset).toBe(id + 1);

    // Lead lost during a long poll: the request is let go and no other one is made while standing by.
    leading = false;
    const aborted = tg.calls.filter((c) => c.method === 'getUpdates').length;
    const standing = checks.length;
    while (checks.length < standing + 5) await new Promise((r) => setTimeout(r, 5));
    expect(tg.calls.filter((c) => c.method === 'getUpdates').length).toBe(aborted);
    await poller.stop();
    expect(handled).toHaveLength(1);
  });

  it('stops polling when Telegram refuses the token (401)', async () => {
    const errors: string[] = [];
    const poller = startPoller({
      api: new Api('999999:refused-token-refused-token-refused', { apiRoot: tg.apiUrl }),
      handle: async () => undefined,
      isLeader: () => true,
      logger: { ...quiet, error: (_o: object, msg: string) => void errors.push(msg) },
      wait: () => Promise.resolve(),
    });
    await poller.done;
    expect(errors).toEqual(['telegram polling stopped: set a valid TELEGRAM_BOT_TOKEN']);
  });
});
