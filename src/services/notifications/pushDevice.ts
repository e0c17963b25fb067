import type { MessageResponse } from '../../../contract/api';
import type {
  NotificationPreferences,
  NotificationPreferencesResponse,
  TestNotificationResponse,
  VapidKeyResponse,
} from '../../../contract/notifications';
import type { Http } from '../http';

/** This browser and web push: whether it can, whether the user allowed it, whether this device is subscribed. */
export interface DeviceState {
  supported: boolean;
  permission: NotificationPermission;
  subscribed: boolean;
}

/** The browser parts, injectable so the service is tested without a service worker. */
export interface PushPlatform {
  /** The app's service worker registration; null where there is none (no support, or not registered yet). */
  registration(): Promise<ServiceWorkerRegistration | null>;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
}

export const browserPushPlatform = (): PushPlatform | null => {
  if (
    typeof window === 'undefined' ||
    !('serviceWorker' in navigator) ||
    !('PushManager' in window) ||
    !('Notification' in window)
  )
    return null;
  return {
    registration: async () => (await navigator.serviceWorker.getRegistration()) ?? null,
    permission: () => Notification.permission,
    requestPermission: () => Notification.requestPermission(),
  };
};

export class PushSetupError extends Error {}

export const MESSAGES = {
  unsupported: 'This browser cannot receive notifications. On iPhone and iPad, add the app to the Home Screen first.',
  denied: 'Notifications are blocked for this site. Allow them in the browser’s site settings, then try again.',
  noWorker: 'The app is still installing its offline support. Reload the page and try again.',
  subscribeFailed: 'The browser could not reach its push service to subscribe. Check the connection and try again.',
} as const;

/** base64url (the server's VAPID public key) → bytes, as pushManager.subscribe wants its applicationServerKey. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Who subscribed this browser, so a different person signing in here does not get their notifications. */
export interface OwnerStore {
  read(): string | null;
  write(userId: string | null): void;
}

const OWNER_KEY = 'pushOwner';
export const localOwnerStore = (): OwnerStore => ({
  read: () => (typeof localStorage === 'undefined' ? null : localStorage.getItem(OWNER_KEY)),
  write: (userId) => {
    if (typeof localStorage === 'undefined') return;
    if (userId) localStorage.setItem(OWNER_KEY, userId);
    else localStorage.removeItem(OWNER_KEY);
  },
});

/**
 * How long the browser may take to reach its push service when subscribing. Without a connection to it (a network
 * that blocks it, a browser build without one) subscribe() never settles, and the button would wait forever.
 */
export const SUBSCRIBE_TIMEOUT_MS = 20_000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PushSetupError(MESSAGES.subscribeFailed)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function createPushDevice(
  http: Http,
  platform: PushPlatform | null = browserPushPlatform(),
  owner: OwnerStore = localOwnerStore(),
  subscribeTimeoutMs = SUBSCRIBE_TIMEOUT_MS,
) {
  const subscriptionNow = async () => (await platform?.registration())?.pushManager.getSubscription() ?? null;

  async function state(): Promise<DeviceState> {
    if (!platform) return { supported: false, permission: 'denied', subscribed: false };
    return { supported: true, permission: platform.permission(), subscribed: (await subscriptionNow()) !== null };
  }

  /** Asks permission, subscribes this browser with the server's key, and gives the subscription to the server. */
  async function enable(userId: string): Promise<DeviceState> {
    if (!platform) throw new PushSetupError(MESSAGES.unsupported);
    const permission = platform.permission() === 'granted' ? 'granted' : await platform.requestPermission();
    if (permission !== 'granted') throw new PushSetupError(MESSAGES.denied);
    const registration = await platform.registration();
    if (!registration) throw new PushSetupError(MESSAGES.noWorker);
    const { publicKey } = await http.get<VapidKeyResponse>('/notifications/vapid-public-key');
    const applicationServerKey = keyBytes(publicKey);
    let subscription: PushSubscription;
    try {
      subscription = await within(
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }),
        subscribeTimeoutMs,
      );
    } catch (error) {
      if (error instanceof PushSetupError) throw error;
      // A subscription made with another server key (the keys were replaced) must go before a new one can be made.
      const old = await registration.pushManager.getSubscription();
      if (!old) throw new PushSetupError(MESSAGES.subscribeFailed);
      await old.unsubscribe();
      subscription = await within(
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }),
        subscribeTimeoutMs,
      ).catch(() => {
        throw new PushSetupError(MESSAGES.subscribeFailed);
      });
    }
    await http.post<MessageResponse>('/notifications/subscriptions', subscription.toJSON());
    owner.write(userId);
    return state();
  }

  /**
   * Tells the server first (while the endpoint is known), then drops the browser's subscription either way: if the
   * server did not hear, its next push to this device is answered 410 and it forgets the device then.
   */
  async function disable(): Promise<DeviceState> {
    const subscription = await subscriptionNow().catch(() => null);
    if (subscription) {
      const told = http.post<MessageResponse>('/notifications/subscriptions/remove', {
        endpoint: subscription.endpoint,
      });
      try {
        await told;
      } finally {
        await subscription.unsubscribe().catch(() => false);
        owner.write(null);
      }
    }
    owner.write(null);
    return state();
  }

  return {
    state,
    enable,
    disable,
    /**
     * Someone signed in. When this browser was subscribed by another user, its subscription is dropped, so nobody
     * gets someone else's notifications on a shared device; that push service then answers 410 and the server
     * forgets the device. (A session that merely expired keeps it: the owner's phone keeps hearing of trades.)
     */
    signedIn: async (userId: string) => {
      const previous = owner.read();
      if (previous === null || previous === userId) return;
      owner.write(null);
      await (await subscriptionNow().catch(() => null))?.unsubscribe().catch(() => false);
    },
    preferences: () => http.get<NotificationPreferencesResponse>('/notifications/preferences'),
    savePreferences: (patch: Partial<NotificationPreferences>) =>
      http.put<NotificationPreferencesResponse>('/notifications/preferences', patch),
    sendTest: () => http.post<TestNotificationResponse>('/notifications/test'),
  };
}
export type PushDevice = ReturnType<typeof createPushDevice>;
