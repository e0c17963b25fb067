import { createSwUpdates, type SwUpdates } from './swUpdates';
import { isEditingForm, trackFormEditing } from './formEditing';
import { showUpdateToast } from './UpdateToast';

const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker from app code, after the first render and the page's load, so it never competes with
 * the first paint (the plugin's own registration script is render-blocking). Production builds only: in dev there
 * is no sw.js (checked by mode, not NODE_ENV, which a parent process may have set to 'test'). Returns the update flow (null where service workers are unavailable).
 */
export async function startPwa(opts: { onUpdateReady?: (apply: () => void) => void } = {}): Promise<SwUpdates | null> {
  if (import.meta.env.MODE === 'development' || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  await pageLoaded();
  const { Workbox } = await import('workbox-window');
  const workbox = new Workbox('/sw.js', { scope: '/' });
  trackFormEditing();
  const updates = createSwUpdates({ workbox, reload: () => window.location.reload(), isEditingForm: () => isEditingForm() });
  const offer = opts.onUpdateReady ?? showUpdateToast;
  updates.updateReady$.subscribe(() => offer(() => updates.applyUpdate()));
  try {
    await workbox.register();
  } catch (err) {
    console.warn('service worker registration failed', err instanceof Error ? err.message : err);
    return null;
  }
  // Long-open tabs (a trading dashboard often is) look for a new version now and then, and when shown again.
  setInterval(() => void updates.checkForUpdate(), UPDATE_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void updates.checkForUpdate();
  });
  return updates;
}

function pageLoaded(): Promise<void> {
  return document.readyState === 'complete'
    ? Promise.resolve()
    : new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

export type { SwUpdates };
