// Telegram: linking a chat to the account (a one-time code shown in Profile, sent to the bot as `/start <code>`), the
// link's state, and the bot's words that screens also show. No runtime dependencies besides zod.
import { z } from './zod';
import { text } from './text';

/** A link code works this long after it was made, once. */
export const TELEGRAM_CODE_TTL_MINUTES = 10;
/** Link codes a user may ask for per 10 minutes; more are refused (429) with when to try again. */
export const TELEGRAM_CODES_PER_WINDOW = 5;

/** The one answer an unlinked chat gets, to anything. */
export const TELEGRAM_NOT_LINKED = 'This chat is not linked';

const isTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};
const isLocale = (value: string) => {
  try {
    return Intl.NumberFormat.supportedLocalesOf([value]).length > 0;
  } catch {
    return false;
  }
};

/**
 * POST /notifications/telegram/link. The browser's time zone and locale go with the code: Telegram tells a bot
 * neither, and the bot shows times and figures in them.
 */
export const TelegramLinkBody = z
  .object({
    timeZone: text('timeZone')
      .max(64, 'timeZone is too long')
      .refine(isTimeZone, 'timeZone must be an IANA time zone such as Europe/Berlin')
      .optional(),
    locale: text('locale')
      .max(35, 'locale is too long')
      .refine(isLocale, 'locale must be a language tag such as en-US')
      .optional(),
  })
  .strict();
export type TelegramLinkBody = z.infer<typeof TelegramLinkBody>;

export interface TelegramLinkResponse {
  success: true;
  /** Send `/start <code>` to the bot, or open `url`. */
  code: string;
  /** https://t.me/<bot>?start=<code> */
  url: string;
  /** ISO time the code stops working. */
  expiresAt: string;
  botUsername: string;
}

export interface TelegramLink {
  /** How the chat introduced itself: its @username or first name. */
  chatName: string;
  linkedAt: string;
}

/** GET /notifications/telegram. `available` false: this server has no bot (TELEGRAM_BOT_TOKEN is not set). */
export interface TelegramStatusResponse {
  success: true;
  available: boolean;
  botUsername: string | null;
  link: TelegramLink | null;
}
