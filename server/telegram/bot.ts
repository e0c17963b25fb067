// The bot's behaviour as grammY middleware. Order: a `/start <code>` links the chat (link.ts); any other update from
// a chat that is not linked (or whose account was deactivated) gets "This chat is not linked" and nothing else; a
// linked chat's six-digit message answers a pending two-factor question; then the commands. Money-moving commands
// (/stop, /resume, and the admins' /halt, /unhalt) ask first: an inline button, or the authenticator code for users
// with two-factor sign-in.
import type { FastifyInstance } from 'fastify';
import { InlineKeyboard, type Bot, type Context } from 'grammy';
import { RateLimiterMemory, RateLimiterRes } from '../security/rate-limiter';
import { TELEGRAM_NOT_LINKED } from '../../contract/telegram';
import { auditVia } from '../audit/audit';
import { findLinkByChat } from '../db/repositories/telegram';
import { findTwoFactor, hasTwoFactor } from '../db/repositories/two-factor';
import { findUserById } from '../db/repositories/users';
import type { UserRow } from '../db/schema';
import type { TelegramLinkRow } from '../db/schema/telegram';
import { isTotpCode } from '../security/totp';
import { checkSecondFactor } from '../sign-in/codes';
import {
  ACTION_QUESTIONS,
  ADMIN_ACTIONS,
  ADMINS_ONLY,
  runAction,
  VIA,
  type ActionDeps,
  type ConfirmableAction,
} from './actions';
import { Confirmations } from './confirm';
import { linkHandler } from './link';
import { readPositions, readStatus } from './reads';
import { helpText } from './views';
import type { Reader } from './format';

interface Linked {
  link: TelegramLinkRow;
  user: UserRow;
  reader: Reader;
}
export type BotContext = Context & { linked?: Linked };

/** Wrong authenticator codes a user may send per 15 minutes before the bot stops checking them for a while. */
export const CODE_ATTEMPTS = 5;

const HTML = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true } };

export function composeBot(bot: Bot<BotContext>, deps: ActionDeps, now: () => number = Date.now): void {
  const { app } = deps;
  const link = linkHandler(app);
  const questions = new Confirmations(now);
  const codeAttempts = new RateLimiterMemory({ points: CODE_ATTEMPTS, duration: 900, keyPrefix: 'tg-2fa' });

  // Linking, and the wall every other update of an unlinked chat meets.
  bot.use(async (ctx, next) => {
    const chatId = ctx.chat?.id ?? ctx.callbackQuery?.from.id;
    if (chatId === undefined) return;
    const start = /^\/start(?:@\w+)?\s+(\S+)\s*$/.exec(ctx.message?.text ?? '');
    if (start?.[1]) return link(ctx, start[1]);
    const linked = ctx.chat?.type === 'private' ? await linkedOf(app, chatId) : null;
    if (!linked) {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: TELEGRAM_NOT_LINKED });
      else if (ctx.message) await ctx.reply(TELEGRAM_NOT_LINKED);
      return;
    }
    ctx.linked = linked;
    await next();
  });

  const ask = async (ctx: BotContext, action: ConfirmableAction) => {
    const { user } = ctx.linked as Linked;
    const chatId = ctx.chat?.id as number;
    if (ADMIN_ACTIONS.has(action) && user.role !== 'admin') return void (await ctx.reply(ADMINS_ONLY));
    if (await hasTwoFactor(app.db, user.id)) {
      questions.askCode(chatId, user.id, action);
      await ctx.reply(
        `${ACTION_QUESTIONS[action]}\nTo confirm, send the 6-digit code from your authenticator app within 2 minutes.`,
      );
      return;
    }
    const nonce = questions.askButton(chatId, user.id, action);
    await ctx.reply(ACTION_QUESTIONS[action], {
      reply_markup: new InlineKeyboard().text('Confirm', `ok:${nonce}`).text('Cancel', `no:${nonce}`),
    });
  };

  const act = async (ctx: BotContext, action: ConfirmableAction) => {
    const { user, reader } = ctx.linked as Linked;
    await ctx.replyWithChatAction('typing');
    await ctx.reply(await runAction(deps, action, user.id, reader), HTML);
  };

  // A pending two-factor question's answer.
  bot.on('message:text', async (ctx, next) => {
    const { user } = ctx.linked as Linked;
    const code = ctx.message.text.trim();
    const action = questions.codeQuestion(ctx.chat.id, user.id);
    if (!action || !isTotpCode(code)) return next();
    try {
      const blocked = await codeAttempts.get(user.id);
      if (blocked && blocked.remainingPoints <= 0) throw blocked;
    } catch (refusal) {
      const ms = refusal instanceof RateLimiterRes ? refusal.msBeforeNext : 900_000;
      return void (await ctx.reply(
        `Too many wrong codes. Try again in ${Math.max(1, Math.ceil(ms / 60_000))} minutes.`,
      ));
    }
    const row = await findTwoFactor(app.db, user.id);
    const right = row?.enabledAt ? await checkSecondFactor(app, row, code) : null;
    if (!right) {
      await codeAttempts.penalty(user.id);
      await auditVia(app.db, app.log, VIA, 'sign_in_2fa_failed', {
        actorId: user.id,
        details: { reason: 'wrong code', during: `telegram /${action}` },
      });
      return void (await ctx.reply('That code is not right. Send the current code from your authenticator app.'));
    }
    questions.answeredCode(ctx.chat.id);
    await codeAttempts.delete(user.id);
    await act(ctx, action);
  });

  bot.callbackQuery(/^(ok|no):([A-Za-z0-9_-]+)$/, async (ctx) => {
    const { user } = ctx.linked as Linked;
    const [, answer, nonce] = ctx.match;
    const chatId = ctx.chat?.id ?? ctx.callbackQuery.from.id;
    const action = questions.takeButton(nonce as string, chatId, user.id);
    if (!action) {
      await ctx.answerCallbackQuery({ text: 'This question has expired. Send the command again.' });
      return;
    }
    const confirmed = answer === 'ok';
    await ctx.answerCallbackQuery({ text: confirmed ? 'Confirmed' : 'Cancelled' });
    // The question loses its buttons, so it cannot be pressed again.
    await ctx.editMessageText(
      `${ACTION_QUESTIONS[action]}\n${confirmed ? 'Confirmed.' : 'Cancelled: nothing changed.'}`,
    );
    if (confirmed) await act(ctx, action);
  });

  bot.command(['start', 'help'], async (ctx) => {
    await ctx.reply(helpText((ctx.linked as Linked).user.role === 'admin'), HTML);
  });
  bot.command('status', async (ctx) => {
    const { user, reader } = ctx.linked as Linked;
    await ctx.reply(await readStatus(app, user, reader), HTML);
  });
  bot.command('positions', async (ctx) => {
    const { user, reader } = ctx.linked as Linked;
    await ctx.reply(await readPositions(app, user, reader), HTML);
  });
  bot.command('stop', (ctx) => ask(ctx, 'stop'));
  bot.command('resume', (ctx) => ask(ctx, 'resume'));
  bot.command('halt', (ctx) => ask(ctx, 'halt'));
  bot.command('unhalt', (ctx) => ask(ctx, 'unhalt'));
  bot.on('message', async (ctx) => {
    await ctx.reply('I do not know that one. /help lists the commands.');
  });
  bot.on('callback_query', async (ctx) => {
    await ctx.answerCallbackQuery();
  });
}

async function linkedOf(app: FastifyInstance, chatId: number): Promise<Linked | null> {
  const link = await findLinkByChat(app.db, chatId);
  if (!link) return null;
  const user = await findUserById(app.db, link.userId);
  if (!user || !user.isActive) return null;
  return { link, user, reader: { locale: link.locale, timeZone: link.timeZone } };
}
