import type { SwUpdates } from './swUpdates';

const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker from app code after the first render, the page's load and an idle moment, so neither
 * it nor the precache downloads it starts compete with the first paint (the plugin's own registration script is
 * render-blocking). Not on the dev server, which has no sw.js (judged by build mode, not NODE_ENV, which a parent
 * process may have set to 'test'). Returns the update flow (null where service workers are unavailable).
 */
export async function startPwa(opts: { onUpdateReady?: (apply: () => void) => void } = {}): Promise<SwUpdates | null> {
  if (import.meta.env.MODE === 'development' || typeof navigator === 'undefined' || !('serviceWorker' in navigator))
    return null;
  await pageLoaded();
  await idle();
  // Loaded only now: none of it is needed to paint or use the first screen.
  const [{ Workbox }, { createSwUpdates }, { isEditingForm, trackFormEditing }] = await Promise.all([
    import('workbox-window'),
    import('./swUpdates'),
    import('./formEditing'),
  ]);
  const workbox = new Workbox('/sw.js', { scope: '/' });
  trackFormEditing();
  const updates = createSwUpdates({
    workbox,
    reload: () => window.location.reload(),
    isEditingForm: () => isEditingForm(),
  });
  // The toast's module (and react-toastify) load only when an update is there to offer.
  const offer =
    opts.onUpdateReady ?? ((apply: () => void) => void import('./UpdateToast').then((m) => m.showUpdateToast(apply)));
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

/** After load, wait until the main thread is idle (at most 5 s): the route's own chunks and first data come first. */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 5000 });
    else setTimeout(resolve, 1000);
  });
}

function pageLoaded(): Promise<void> {
  return document.readyState === 'complete'
    ? Promise.resolve()
    : new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

export type { SwUpdates };
