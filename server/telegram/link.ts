// `/start <code>` in a private chat: the one thing an unlinked chat can do besides being told it is not linked. The
// code is taken once (db/repositories/telegram.ts consumeLinkCode) and attempts are throttled per chat, so codes
// cannot be guessed. Linking is audited; so is the loss of a link when another account's code takes the chat over.
import type { FastifyInstance } from 'fastify';
import type { Context } from 'grammy';
import { RateLimiterMemory, RateLimiterRes } from '../security/rate-limiter';
import { TELEGRAM_CODE_TTL_MINUTES, TELEGRAM_NOT_LINKED } from '../../contract/telegram';
import { auditVia } from '../audit/audit';
import { consumeLinkCode, linkChat } from '../db/repositories/telegram';
import { findUserById } from '../db/repositories/users';
import { hashLinkCode, looksLikeLinkCode } from './codes';
import { VIA } from './actions';

/** Link attempts a chat may make per 10 minutes. */
export const LINK_ATTEMPTS_PER_WINDOW = 5;

export const CODE_REFUSED =
  'This link code is not valid: it was used already or it expired. Make a new one in Profile → Connect Telegram.';

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

export function linkHandler(app: FastifyInstance) {
  const attempts = new RateLimiterMemory({ points: LINK_ATTEMPTS_PER_WINDOW, duration: 600, keyPrefix: 'tg-link' });

  return async (ctx: Context, code: string): Promise<void> => {
    const chat = ctx.chat;
    if (!chat || chat.type !== 'private' || !ctx.from) {
      await ctx.reply(TELEGRAM_NOT_LINKED);
      return;
    }
    try {
      await attempts.consume(String(chat.id));
    } catch (refusal) {
      const wait = refusal instanceof RateLimiterRes ? refusal.msBeforeNext : 600_000;
      await ctx.reply(`Too many link attempts from this chat. Try again in ${minutes(wait)} minutes.`);
      return;
    }
    const taken = looksLikeLinkCode(code) ? await consumeLinkCode(app.db, hashLinkCode(code)) : null;
    if (!taken || !taken.ok) {
      await ctx.reply(
        taken?.reason === 'expired'
          ? `This link code has expired (codes work for ${TELEGRAM_CODE_TTL_MINUTES} minutes). Make a new one in Profile → Connect Telegram.`
          : CODE_REFUSED,
      );
      return;
    }
    const user = await findUserById(app.db, taken.userId);
    if (!user || !user.isActive) {
      await ctx.reply(CODE_REFUSED);
      return;
    }
    const chatName = ctx.from.username ? `@${ctx.from.username}` : ctx.from.first_name;
    const linked = await linkChat(app.db, {
      userId: user.id,
      chatId: chat.id,
      chatName,
      timeZone: taken.timeZone,
      locale: taken.locale,
    });
    await auditVia(app.db, app.log, VIA, 'telegram_linked', {
      actorId: user.id,
      details: { chat: chatName, ...(linked.previousChat !== null && { replacedEarlierChat: true }) },
    });
    if (linked.previousUserOfChat)
      await auditVia(app.db, app.log, VIA, 'telegram_unlinked', {
        actorId: user.id,
        subjectId: linked.previousUserOfChat,
        details: { reason: 'the chat was linked to another account' },
      });
    await ctx.reply(
      `This chat is now linked to ${user.username}. Your notifications arrive here, as chosen in Settings → Notifications. /help lists the commands.`,
    );
  };
}
