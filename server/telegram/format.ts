// Figures and times as the linked user reads them: in the locale and time zone their browser had when they linked
// the chat (Telegram tells a bot neither). Money is USDT; a sign always shows on P&L.
export interface Reader {
  locale: string;
  timeZone: string;
}

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, digits: number, signed: boolean): Intl.NumberFormat {
  const key = `${locale}|${digits}|${signed}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      signDisplay: signed ? 'exceptZero' : 'auto',
    });
    formatters.set(key, f);
  }
  return f;
}

/** An amount of USDT: cents from one dollar up, four places below. */
export function usdt(reader: Reader, amount: number, options: { signed?: boolean } = {}): string {
  const digits = Math.abs(amount) >= 1 || amount === 0 ? 2 : 4;
  return `${numberFormat(reader.locale, digits, options.signed ?? false).format(amount)} USDT`;
}

export const pnl = (reader: Reader, amount: number) => usdt(reader, amount, { signed: true });

/** A price (a few significant places, grouped as the reader groups them). */
export function price(reader: Reader, value: number): string {
  return numberFormat(reader.locale, value >= 100 ? 2 : 4, false).format(value);
}

/** Date and time in the reader's zone, e.g. "26 Nov 2026, 14:03 (Europe/Berlin)". */
export function dateTime(reader: Reader, at: Date | string): string {
  const text = new Intl.DateTimeFormat(reader.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: reader.timeZone,
  }).format(new Date(at));
  return `${text} (${reader.timeZone})`;
}

/** The instant the reader's day began (midnight in their zone), for "today's P&L". */
export function startOfDay(timeZone: string, now = new Date()): Date {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const sinceMidnightMs = ((part('hour') * 60 + part('minute')) * 60 + part('second')) * 1000 + now.getMilliseconds();
  return new Date(now.getTime() - sinceMidnightMs);
}

/** Telegram's HTML parse mode: only these three characters need escaping in text. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
