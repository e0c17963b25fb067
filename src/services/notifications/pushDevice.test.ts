import { describe, expect, it, vi } from 'vitest';
import type { Http } from '../http';
import { createPushDevice, keyBytes, MESSAGES, PushSetupError, type OwnerStore, type PushPlatform } from './pushDevice';

const KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

function fakes(permission: NotificationPermission = 'granted') {
  let current: { endpoint: string; unsubscribe: () => Promise<boolean>; toJSON: () => object } | null = null;
  const subscribe = vi.fn(async (options: PushSubscriptionOptionsInit) => {
    current = {
      endpoint: 'https://push.example/device-1',
      unsubscribe: vi.fn(async () => {
        current = null;
        return true;
      }),
      toJSON: () => ({ endpoint: 'https://push.example/device-1', keys: { p256dh: 'p', auth: 'a' }, options }),
    };
    return current;
  });
  const registration = {
    pushManager: { subscribe, getSubscription: async () => current },
  } as unknown as ServiceWorkerRegistration;
  const platform: PushPlatform = {
    registration: async () => registration,
    permission: () => permission,
    requestPermission: async () => permission,
  };
  const posts: Array<[string, unknown]> = [];
  const http = {
    get: async () => ({ success: true, publicKey: KEY }),
    post: async (p: string, b: unknown) => void posts.push([p, b]),
  } as unknown as Http;
  let owner: string | null = null;
  const owners: OwnerStore = { read: () => owner, write: (u) => void (owner = u) };
  return { platform, http, posts, subscribe, owners, current: () => current };
}

describe('push on this device', () => {
  it('subscribes with the server’s key, hands the subscription over, and remembers who did', async () => {
    const f = fakes();
    const device = createPushDevice(f.http, f.platform, f.owners);
    expect(await device.enable('alice')).toEqual({ supported: true, permission: 'granted', subscribed: true });
    const key = f.subscribe.mock.calls[0]?.[0].applicationServerKey as Uint8Array;
    expect(key).toHaveLength(65);
    expect(Array.from(key)).toEqual(Array.from(keyBytes(KEY)));
    expect(f.posts[0]?.[0]).toBe('/notifications/subscriptions');
    expect(f.owners.read()).toBe('alice');
    // Someone else signing in on this browser drops the subscription; the owner signing in again keeps it.
    await device.signedIn('alice');
    expect(f.current()).not.toBeNull();
    await device.signedIn('bob');
    expect(f.current()).toBeNull();
    expect(f.owners.read()).toBeNull();
  });

  it('tells the server before unsubscribing, and refuses clearly where push cannot work', async () => {
    const f = fakes();
    const device = createPushDevice(f.http, f.platform, f.owners);
    await device.enable('alice');
    expect(await device.disable()).toMatchObject({ subscribed: false });
    expect(f.posts[1]).toEqual(['/notifications/subscriptions/remove', { endpoint: 'https://push.example/device-1' }]);
    const denied = fakes('denied');
    await expect(createPushDevice(denied.http, denied.platform, denied.owners).enable('alice')).rejects.toThrow(
      new PushSetupError(MESSAGES.denied),
    );
    await expect(createPushDevice(f.http, null, f.owners).enable('alice')).rejects.toThrow(MESSAGES.unsupported);
  });

  it('gives up with a clear message when the browser never reaches its push service', async () => {
    const f = fakes();
    const stuck = {
      ...f.platform,
      registration: async () =>
        ({
          pushManager: { subscribe: () => new Promise(() => undefined), getSubscription: async () => null },
        }) as unknown as ServiceWorkerRegistration,
    };
    await expect(createPushDevice(f.http, stuck, f.owners, 20).enable('alice')).rejects.toThrow(
      new PushSetupError(MESSAGES.subscribeFailed),
    );
    expect(f.posts).toEqual([]);
  });

  it('drops the browser’s subscription even when the server cannot be told (signing out offline)', async () => {
    const f = fakes();
    const device = createPushDevice(f.http, f.platform, f.owners);
    await device.enable('alice');
    const unreachable = { ...f.http, post: async () => Promise.reject(new Error('offline')) } as unknown as Http;
    await expect(createPushDevice(unreachable, f.platform, f.owners).disable()).rejects.toThrow('offline');
    expect(f.current()).toBeNull();
    expect(f.owners.read()).toBeNull();
  });
});
