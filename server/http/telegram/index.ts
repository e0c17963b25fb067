// Linking the caller's Telegram chat: its state, a one-time code (with the t.me link that sends it), and unlinking.
// Codes are throttled per user, work once, for TELEGRAM_CODE_TTL_MINUTES; linking (in the chat) and unlinking (here)
// are audited. Without TELEGRAM_BOT_TOKEN the state says the bot is not available and a code is refused with 409
// (as is one asked for before the bot has reached Telegram): the request is fine, this server cannot serve it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiterMemory, RateLimiterRes } from '../../security/rate-limiter';
import type { MessageResponse } from '../../../contract/api';
import {
  TELEGRAM_CODE_TTL_MINUTES,
  TELEGRAM_CODES_PER_WINDOW,
  TelegramLinkBody,
  type TelegramLinkResponse,
  type TelegramStatusResponse,
} from '../../../contract/telegram';
import { audit } from '../../audit/audit';
import { findLink, issueLinkCode, unlinkUser } from '../../db/repositories/telegram';
import { hashLinkCode, newLinkCode } from '../../telegram/codes';
import { conflict, HttpError } from '../plugins/http-error';

export const TELEGRAM_UNAVAILABLE = 'Telegram is not set up on this server. An admin can add a bot (README, Telegram).';
export const TELEGRAM_UNREACHABLE = 'The Telegram bot cannot be reached right now. Try again in a minute.';

export const telegramRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['notifications'];
  // Per instance: a code is a button press, and each is single-use and short-lived anyway.
  const codes = new RateLimiterMemory({ points: TELEGRAM_CODES_PER_WINDOW, duration: 600, keyPrefix: 'tg-code' });

  app.get(
    '/notifications/telegram',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: "Whether this server has a bot, and the caller's linked chat" },
    },
    async (request): Promise<TelegramStatusResponse> => {
      const link = await findLink(app.db, request.user.id);
      return {
        success: true,
        available: app.telegram !== null,
        botUsername: app.telegram?.botUsername ?? null,
        link: link ? { chatName: link.chatName, linkedAt: link.linkedAt.toISOString() } : null,
      };
    },
  );

  app.post(
    '/notifications/telegram/link',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: `A one-time code (and its t.me link) that links a Telegram chat to the caller, for ${TELEGRAM_CODE_TTL_MINUTES} minutes`,
        body: TelegramLinkBody,
      },
    },
    async (request, reply): Promise<TelegramLinkResponse> => {
      if (!app.telegram) throw conflict(TELEGRAM_UNAVAILABLE);
      const bot = app.telegram.botUsername;
      if (!bot) throw new HttpError(409, TELEGRAM_UNREACHABLE, { 'retry-after': '60' });
      try {
        await codes.consume(request.user.id);
      } catch (refusal) {
        const seconds = refusal instanceof RateLimiterRes ? Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) : 600;
        throw new HttpError(
          429,
          `That is a lot of link codes. Try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? 's' : ''}.`,
          { 'retry-after': String(seconds) },
        );
      }
      const code = newLinkCode();
      const expiresAt = new Date(Date.now() + TELEGRAM_CODE_TTL_MINUTES * 60_000);
      await issueLinkCode(app.db, {
        userId: request.user.id,
        codeHash: hashLinkCode(code),
        timeZone: request.body.timeZone ?? 'UTC',
        locale: request.body.locale ?? 'en-US',
        expiresAt,
      });
      reply.code(201);
      return {
        success: true,
        code,
        url: `https://t.me/${bot}?start=${code}`,
        expiresAt: expiresAt.toISOString(),
        botUsername: bot,
      };
    },
  );

  app.delete(
    '/notifications/telegram',
    { preHandler: app.authenticate, schema: { tags, summary: "Unlinks the caller's Telegram chat" } },
    async (request): Promise<MessageResponse> => {
      const removed = await unlinkUser(app.db, request.user.id);
      if (!removed) return { success: true, message: 'No Telegram chat was linked' };
      await audit(app, request, 'telegram_unlinked', { details: { chat: removed.chatName } });
      await app.telegram?.tell(
        removed.chatId,
        'This chat was unlinked from your account in the app. Nothing more is sent here.',
      );
      return { success: true, message: 'Telegram chat unlinked' };
    },
  );
};
