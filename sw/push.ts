// Pure decisions of the service worker's web push handling: what a push shows and where a click on it leads.
import type { PushMessage } from '../contract/notifications';

export interface ShownNotification {
  title: string;
  options: NotificationOptions & { timestamp?: number };
}

const FALLBACK: ShownNotification = {
  title: 'Arbitrage',
  options: {
    body: 'Something happened with your trading. Open the app to see it.',
    tag: 'fallback',
    data: { url: '/dashboard' },
    icon: '/icons/icon-192.png',
  },
};

/**
 * The notification for a push payload (contract/notifications.ts PushMessage). A payload that cannot be read still
 * shows something: Chromium counts a push that shows nothing against the site's push permission.
 */
export function notificationFor(text: string | null): ShownNotification {
  let message: Partial<PushMessage>;
  try {
    message = JSON.parse(text ?? '') as Partial<PushMessage>;
  } catch {
    return FALLBACK;
  }
  if (typeof message.title !== 'string' || typeof message.body !== 'string') return FALLBACK;
  const at = typeof message.at === 'string' ? Date.parse(message.at) : NaN;
  return {
    title: message.title,
    options: {
      body: message.body,
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      data: { url: typeof message.url === 'string' ? message.url : '/dashboard', kind: message.kind },
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      ...(Number.isFinite(at) && { timestamp: at }),
    },
  };
}

/** Where a click goes: a path on our own origin only (a payload never sends the user elsewhere). */
export function clickTarget(url: unknown, origin: string): string {
  if (typeof url !== 'string') return `${origin}/dashboard`;
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? target.href : `${origin}/dashboard`;
  } catch {
    return `${origin}/dashboard`;
  }
}
