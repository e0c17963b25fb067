import { describe, expect, it } from 'vitest';
import { createSwUpdates, type WorkboxLike } from './swUpdates';

type Listener = (event: { isUpdate?: boolean; isExternal?: boolean }) => void;

function fakeWorkbox() {
  const listeners: Record<string, Listener[]> = {};
  const log: string[] = [];
  const wb: WorkboxLike & { fire(type: 'waiting' | 'controlling', event?: { isUpdate?: boolean }): void } = {
    addEventListener: (type, l) => void (listeners[type] ??= []).push(l),
    messageSkipWaiting: () => void log.push('skipWaiting'),
    update: async () => void log.push('update'),
    fire: (type, event = {}) => listeners[type]?.forEach((l) => l(event)),
  };
  return { wb, log };
}

function setup(editing = false) {
  const { wb, log } = fakeWorkbox();
  const offers: number[] = [];
  const updates = createSwUpdates({ workbox: wb, reload: () => void log.push('reload'), isEditingForm: () => editing });
  updates.updateReady$.subscribe(() => offers.push(offers.length));
  return { wb, log, offers, updates };
}

describe('service worker update flow', () => {
  it('offers the update when a new worker waits, and does nothing else on its own', () => {
    const { wb, log, offers } = setup();
    wb.fire('waiting');
    expect(offers).toHaveLength(1);
    expect(log).toEqual([]);
  });

  it('Reload asks the waiting worker to take over and reloads once it controls the page', () => {
    const { wb, log, updates } = setup(true);
    wb.fire('waiting');
    updates.applyUpdate();
    expect(log).toEqual(['skipWaiting']);
    wb.fire('controlling', { isUpdate: true });
    expect(log).toEqual(['skipWaiting', 'reload']);
  });

  it('the first install taking control is not an update: no reload', () => {
    const { wb, log, offers } = setup();
    wb.fire('controlling', { isUpdate: false });
    expect(log).toEqual([]);
    expect(offers).toEqual([]);
  });

  it('switched by another tab while a form is being edited: offers Reload instead of reloading', () => {
    const { wb, log, offers, updates } = setup(true);
    wb.fire('controlling', { isUpdate: true });
    expect(log).toEqual([]);
    expect(offers).toHaveLength(1);
    updates.applyUpdate();
    expect(log).toEqual(['reload']);
  });

  it('switched by another tab with no form being edited: reloads to the new version', () => {
    const { wb, log } = setup(false);
    wb.fire('controlling', { isUpdate: true });
    expect(log).toEqual(['reload']);
  });

  it('a failed update check is harmless', async () => {
    const { wb } = fakeWorkbox();
    wb.update = () => Promise.reject(new Error('offline'));
    const updates = createSwUpdates({ workbox: wb, reload: () => {}, isEditingForm: () => false });
    await expect(updates.checkForUpdate()).resolves.toBeUndefined();
  });
});
