import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clientsClaim } from 'workbox-core';
import { clickTarget, notificationFor } from './push';
import { isNeverCached, SKIP_WAITING_MESSAGE } from './routes';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// /api/* and /socket.io/* are never answered by the worker: registered before workbox's own fetch listener, this one
// stops the event so no route (not even a later, too broad one) can respond; the browser then fetches them itself
// and nothing of theirs ever reaches Cache Storage.
self.addEventListener('fetch', (event) => {
  if (isNeverCached(new URL(event.request.url), self.location.origin)) event.stopImmediatePropagation();
});

// The shell (index.html), every route chunk, the manifest and the icons: the build injects the list with revisions.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every navigation (/, /dashboard, /trades, ...) answers with the precached shell, online or offline: the router in
// the shell draws the route, and the app's data comes from IndexedDB until the API answers.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html')));

// A new version waits until the page says so (the user pressed Reload on the update toast), so a form being edited
// is never swapped from under the user.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === SKIP_WAITING_MESSAGE) void self.skipWaiting();
});

// On the very first install take control of the open page at once, so it works offline without a second visit.
clientsClaim();

// Web push: the server encrypts a PushMessage for this device (RFC 8291); show it, replacing one with the same tag.
self.addEventListener('push', (event) => {
  const { title, options } = notificationFor(event.data?.text() ?? null);
  event.waitUntil(self.registration.showNotification(title, options));
});

// A click opens the screen the notification is about: an open window of the app navigates there, else a new one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = clickTarget((event.notification.data as { url?: unknown } | null)?.url, self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        // Each on its own: a browser that refuses one (focus needs the click's user activation) still does the other.
        await open.focus().catch(() => undefined);
        await open.navigate(target).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
