// The Telegram bot through grammY against the fake Bot API, on the real app with the engine over scripted venues and
// a real database: linking with one-time codes, an unlinked chat, a trade's notification delivered once, /stop with
// its confirm closing the open trades, /halt refused to a non-admin, and backing off on 429 and network errors.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../contract/entities';
import {
  TELEGRAM_NOT_LINKED,
  type TelegramLinkResponse,
  type TelegramStatusResponse,
} from '../../../contract/telegram';
import { isTradingHalted } from '../../../server/db/repositories/trading-halt';
import { issueLinkCode } from '../../../server/db/repositories/telegram';
import { auditEvents, trades, users } from '../../../server/db/schema';
import { startPushBridge } from '../../../server/notifications';
import { hashLinkCode } from '../../../server/telegram/codes';
import { CODE_REFUSED } from '../../../server/telegram/link';
import { ADMINS_ONLY } from '../../../server/telegram/actions';
import { totpOf } from '../../../server/security/totp';
import { startFakeTelegram, type FakeChat, type FakeTelegram } from '../../fakes/telegram/server';
import { backends, type SignedIn } from '../helpers/app';
import { createDbEngine, type DbEngine } from '../engine/db-engine';

describe.each(backends)('telegram bot on %s', (backend) => {
  let tg: FakeTelegram;
  let d: DbEngine;
  /** What the poller was asked to wait (ms), and what the send throttle was. Both return at once (bounded). */
  const pollWaits: number[] = [];
  const sendWaits: number[] = [];
  const record = (into: number[]) => (ms: number) => {
    into.push(ms);
    return new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 5)));
  };
  let chats = 0;
  const newChat = (name: string): FakeChat => ({ id: 5_000_000 + ++chats, firstName: name, username: `${name}_tg` });
  const inChat = (chat: FakeChat) => tg.messages.filter((m) => m.chatId === chat.id);

  /** Sends a line and resolves with the bot's next message in that chat. */
  const say = async (chat: FakeChat, text: string) => {
    const before = inChat(chat).length;
    tg.userSends(chat, text);
    return tg.waitForMessage(chat.id, (m) => inChat(chat).indexOf(m) >= before && !m.edited, `an answer to ${text}`);
  };

  const codeFor = async (user: SignedIn) => {
    const res = await d.t.request('POST', '/api/notifications/telegram/link', {
      token: user.token,
      body: { timeZone: 'Europe/Berlin', locale: 'de-DE' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as TelegramLinkResponse;
  };
  const link = async (user: SignedIn, chat: FakeChat) => {
    const { code } = await codeFor(user);
    expect((await say(chat, `/start ${code}`)).text).toMatch(/^This chat is now linked to /);
  };

  beforeAll(async () => {
    tg = await startFakeTelegram();
    d = await createDbEngine(
      backend,
      {
        env: { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_URL: tg.apiUrl },
        build: {
          telegram: {
            wait: record(pollWaits),
            pollTimeoutSeconds: 5,
            leaderCheckMs: 50,
            throttle: { wait: record(sendWaits) },
          },
        },
      },
      { userSyncMs: 100 },
    );
    // As the process does where the engine runs: engine events become notifications (push and Telegram).
    startPushBridge({
      events$: d.engine.events$,
      isLeader: () => d.engine.isTrading,
      push: d.t.app.push,
      logger: d.t.app.log,
    });
    await d.t.app.telegram?.start({ poll: true, isLeader: () => d.engine.isTrading });
  });
  afterAll(async () => {
    await d?.close();
    await tg?.close();
  });

  it('links a chat with a one-time code from Profile, shows it, and unlinks it (audited)', async () => {
    const alice = await d.t.createUser();
    const chat = newChat('alice');
    const before = (await d.t.request('GET', '/api/notifications/telegram', { token: alice.token })).json();
    expect(before).toEqual({ success: true, available: true, botUsername: tg.username, link: null });

    const issued = await codeFor(alice);
    expect(issued.code).toMatch(/^[a-z0-9]{10}$/);
    expect(issued.url).toBe(`https://t.me/${tg.username}?start=${issued.code}`);
    expect(Date.parse(issued.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    const linked = await say(chat, `/start ${issued.code}`);
    expect(linked.text).toBe(
      `This chat is now linked to ${alice.user.username}. Your notifications arrive here, as chosen in Settings → Notifications. /help lists the commands.`,
    );
    const state = (
      await d.t.request('GET', '/api/notifications/telegram', { token: alice.token })
    ).json() as TelegramStatusResponse;
    expect(state.link?.chatName).toBe('@alice_tg');
    expect((await say(chat, '/help')).text).toContain('/stop: Stop & flatten');

    const unlinked = await d.t.request('DELETE', '/api/notifications/telegram', { token: alice.token });
    expect(unlinked.json()).toEqual({ success: true, message: 'Telegram chat unlinked' });
    await tg.waitForMessage(chat.id, (m) => m.text.startsWith('This chat was unlinked'));
    expect((await say(chat, '/status')).text).toBe(TELEGRAM_NOT_LINKED);
    const audited = await d.t.db
      .select({ action: auditEvents.action, agent: auditEvents.userAgent })
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, alice.user._id));
    expect(audited.filter((a) => a.action.startsWith('telegram_'))).toEqual([
      { action: 'telegram_linked', agent: 'telegram' },
      { action: 'telegram_unlinked', agent: expect.any(String) },
    ]);
  });

  it('refuses a code used once already, and an expired one, without linking', async () => {
    const bob = await d.t.createUser();
    const first = newChat('bob');
    const second = newChat('mallory');
    const { code } = await codeFor(bob);
    await say(first, `/start ${code}`);
    expect((await say(second, `/start ${code}`)).text).toBe(CODE_REFUSED);
    expect((await say(second, '/status')).text).toBe(TELEGRAM_NOT_LINKED);

    await issueLinkCode(d.t.db, {
      userId: bob.user._id,
      codeHash: hashLinkCode('expired234'),
      timeZone: 'UTC',
      locale: 'en-US',
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await say(second, '/start expired234')).text).toMatch(/^This link code has expired/);
    expect((await say(second, '/positions')).text).toBe(TELEGRAM_NOT_LINKED);
  });

  it('answers an unlinked chat only that it is not linked, whatever it sends', async () => {
    const stranger = newChat('stranger');
    for (const text of ['/status', '/positions', '/stop', '/halt', 'hello', '/start']) await say(stranger, text);
    expect(inChat(stranger).map((m) => m.text)).toEqual(Array(6).fill(TELEGRAM_NOT_LINKED));
    expect(inChat(stranger).every((m) => m.buttons.length === 0)).toBe(true);
  });

  it("delivers a completed trade's notification to the linked chat once, in the user's format", async () => {
    const carol = await d.t.createUser();
    const chat = newChat('carol');
    await link(carol, chat);
    expect((await d.t.request('POST', '/api/exchanges/trading/add-user', { token: carol.token })).statusCode).toBe(200);
    d.quote('BTC/USDT', 60_000, 0.01);
    await d.until(
      'a trade opens',
      async () => (await d.t.db.select().from(trades).where(eq(trades.userId, carol.user._id))).length > 0,
    );
    d.quote('BTC/USDT', 60_000, 0);
    const note = await tg.waitForMessage(chat.id, (m) => /^Closed[^:]*: BTC\/USDT /.test(m.text));
    expect(note.text).toMatch(/\(Europe\/Berlin\)$/);
    // Everything the engine does next (more saves of the same trade) is done before the answer to a later command.
    await d.engine.idle();
    await say(chat, '/status');
    expect(inChat(chat).filter((m) => /^Closed[^:]*: BTC\/USDT /.test(m.text))).toHaveLength(1);
    const [row] = await d.t.db.select().from(trades).where(eq(trades.userId, carol.user._id));
    expect(note.text).toContain(row?.tradeId as string);
    await d.t.request('POST', '/api/exchanges/trading/remove-user', { token: carol.token });
  });

  it('/stop asks with a button; the confirm closes every open trade and lists each result', async () => {
    const dave = await d.t.createUser();
    const chat = newChat('dave');
    await link(dave, chat);
    const ids: string[] = [];
    for (const symbol of ['ETH/USDT', 'BTC/USDT'] as const) {
      // Fresh quotes for each manual trade: a decision on quotes older than Deriv's next tick is never sent.
      d.quote(symbol, symbol === 'ETH/USDT' ? 3_000 : 60_000, 0);
      const res = await d.t.request('POST', '/api/trades', { token: dave.token, body: { symbol, totalAmount: 50 } });
      expect(res.statusCode, res.body).toBe(201);
      ids.push((res.json() as { trade: Trade }).trade._id);
    }
    const open = async () =>
      (
        await d.t.db
          .select()
          .from(trades)
          .where(and(eq(trades.userId, dave.user._id), eq(trades.status, 'pending')))
      ).length;
    await d.until('legs open', async () => {
      const rows = await d.t.db.select().from(trades).where(eq(trades.userId, dave.user._id));
      return rows.length === 2 && rows.every((r) => r.legs.every((l) => l.status === 'open'));
    });
    const positions = await say(chat, '/positions');
    expect(positions.text).toMatch(/^2 open trades/);

    const question = await say(chat, '/stop');
    expect(question.text).toBe('Stop & flatten: turn automated trading off and close every open trade now?');
    const confirm = question.buttons[0]?.find((b) => b.text === 'Confirm');
    expect(confirm).toBeDefined();
    expect(await open()).toBe(2);
    const before = inChat(chat).length;
    tg.userPresses(chat, question.messageId, confirm?.data as string);
    // Each flattened trade's own notification (closed, with its P&L) may arrive before the answer.
    const answer = await tg.waitForMessage(
      chat.id,
      (m) => inChat(chat).indexOf(m) >= before && !m.edited && m.text.startsWith('Automated trading stopped'),
    );
    expect(answer.text.split('\n')[0]).toBe('Automated trading stopped and 2 open trades closed.');
    const rows = await d.t.db.select().from(trades).where(eq(trades.userId, dave.user._id));
    for (const r of rows) expect(answer.text).toContain(`${r.tradeId} ${r.symbol}: Closed — flattened`);
    expect(await open()).toBe(0);
    expect(rows.every((r) => r.reason === 'stop & flatten')).toBe(true);
    const [saved] = await d.t.db.select({ on: users.tradingEnabled }).from(users).where(eq(users.id, dave.user._id));
    expect(saved?.on).toBe(false);
    // The question lost its buttons; pressing the old one again does nothing.
    expect(tg.messages.find((m) => m.messageId === question.messageId)?.text).toMatch(/Confirmed\.$/);
    const pressedAgain = tg.userPresses(chat, question.messageId, confirm?.data as string);
    await tg.waitForCall('answerCallbackQuery', tg.answeredCallbacks.length + 1);
    expect(tg.answeredCallbacks.find((c) => c.id === pressedAgain)?.text).toBe(
      'This question has expired. Send the command again.',
    );
    const audited = await d.t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'stop_and_flatten'), eq(auditEvents.actorId, dave.user._id)));
    expect(audited[0]).toMatchObject({ userAgent: 'telegram', details: { open: 2, closed: 2, stillClosing: 0 } });
  });

  it('refuses /halt to a non-admin; an admin halts after confirming', async () => {
    const erin = await d.t.createUser();
    const chat = newChat('erin');
    await link(erin, chat);
    expect((await say(chat, '/halt')).text).toBe(ADMINS_ONLY);
    expect(await isTradingHalted(d.t.db)).toBe(false);

    const adminChat = newChat('admin');
    await link(d.t.admin, adminChat);
    const question = await say(adminChat, '/halt');
    const confirm = question.buttons[0]?.find((b) => b.text === 'Confirm');
    const before = inChat(adminChat).length;
    tg.userPresses(adminChat, question.messageId, confirm?.data as string);
    await tg.waitForMessage(
      adminChat.id,
      (m) => inChat(adminChat).indexOf(m) >= before && m.text.startsWith('Trading is halted for every user'),
    );
    expect(await isTradingHalted(d.t.db)).toBe(true);
    // Every linked chat hears of it (erin's included), as every device does.
    await tg.waitForMessage(chat.id, (m) => m.text.startsWith('Automated trading: Halted by an admin'));
    await tg.waitForMessage(adminChat.id, (m) => m.text.startsWith('Automated trading: Halted by an admin'));
    const lift = await say(adminChat, '/unhalt');
    tg.userPresses(adminChat, lift.messageId, lift.buttons[0]?.[0]?.data as string);
    await tg.waitForMessage(adminChat.id, (m) => m.text === 'Trading resumed for every user.');
    expect(await isTradingHalted(d.t.db)).toBe(false);
  });

  it('asks a user with two-factor sign-in for the authenticator code instead of a button', async () => {
    const gina = await d.t.createUser();
    const setup = await d.t.request('POST', '/api/auth/2fa/setup', { token: gina.token });
    const { secret } = setup.json() as { secret: string };
    const enabled = await d.t.request('POST', '/api/auth/2fa/enable', {
      token: gina.token,
      body: { code: totpOf(secret, 'test').generate() },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const chat = newChat('gina');
    await link(gina, chat);

    const question = await say(chat, '/resume');
    expect(question.text).toBe(
      'Turn automated trading on again, within your limits?\nTo confirm, send the 6-digit code from your authenticator app within 2 minutes.',
    );
    expect(question.buttons).toEqual([]);
    // The code just used to enrol is spent; a made-up one is wrong too.
    const current = totpOf(secret, 'test').generate();
    const wrong = current === '000000' ? '111111' : '000000';
    expect((await say(chat, wrong)).text).toBe(
      'That code is not right. Send the current code from your authenticator app.',
    );
    const on = async () =>
      (await d.t.db.select({ on: users.tradingEnabled }).from(users).where(eq(users.id, gina.user._id)))[0]?.on;
    expect(await on()).toBe(false);
    // The next time step's code (accepted: one step of tolerance either way, each step once).
    const next = totpOf(secret, 'test').generate({ timestamp: Date.now() + 30_000 });
    expect((await say(chat, next)).text).toBe('You are now trading automatically within your limits.');
    expect(await on()).toBe(true);
    const failed = await d.t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'sign_in_2fa_failed'), eq(auditEvents.actorId, gina.user._id)));
    expect(failed[0]?.details).toEqual({ reason: 'wrong code', during: 'telegram /resume' });
    await d.t.request('POST', '/api/exchanges/trading/remove-user', { token: gina.token });
  });

  it('backs off on 429 as long as retry_after says, and on a network error, then answers again', async () => {
    const frank = await d.t.createUser();
    const chat = newChat('frank');
    await link(frank, chat);

    tg.rateLimitNext('getUpdates', 7);
    const polls = tg.calls.filter((c) => c.method === 'getUpdates').length;
    // The poll in flight ends with this update; the next one is refused with 429.
    expect((await say(chat, '/help')).text).toContain('/status');
    await tg.waitForCall('getUpdates', polls + 3);
    expect(pollWaits).toContain(7000);

    tg.dropNext('getUpdates');
    expect((await say(chat, '/help')).text).toContain('/status');
    await d.until('a network error logged', async () =>
      d.t.logs.some((l) => l.includes('telegram getUpdates failed; backing off') && l.includes('network error')),
    );
    expect((await say(chat, '/help')).text).toContain('/status');

    // A 429 on a send: the message waits retry_after and goes once.
    tg.rateLimitNext('sendMessage', 3);
    const sent = await say(chat, '/positions');
    expect(sent.text).toBe('No open trades.');
    expect(sendWaits).toContain(3000);
    expect(inChat(chat).filter((m) => m.text === 'No open trades.')).toHaveLength(1);
    expect(d.t.logs.join('\n')).not.toContain(tg.token);
  });
});
