import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { loadToasts, showNotice } from './features/toasts/notices';
import { EntryServicesProvider } from './hooks/services';
import { createAppRouter } from './router';
import { startPwa } from './pwa';
import { createAppServicesLoader } from './services/appServicesLoader';
import { createSession } from './services/session';
import './styles/global.css';
import { applyThemeMode, readThemeMode, watchSystemTheme } from './styles/themeMode';

// Composition root: session, the lazily built signed-in services, router, theme. No inline script in index.html (CSP
// script-src 'self'). The entry carries only what /login needs; the signed-in layer (RxJS, IndexedDB, the socket, the
// domain services) is a chunk of its own.
applyThemeMode(readThemeMode());
watchSystemTheme();

let router: ReturnType<typeof createAppRouter> | null = null;
const session = createSession({
  // A 401 on any call but login: the session is cleared and the browser goes to /login.
  onSessionExpired: () => {
    const here = router?.state.location.href;
    void router?.navigate({
      to: '/login',
      search: here && here !== '/' && !here.startsWith('/login') ? { redirect: here } : {},
    });
  },
  notify: showNotice,
  // Signing out wipes this user's offline copy (IndexedDB), loaded on demand like the rest of the signed-in layer.
  clearUserData: (userId) => void import('./cache/db').then((db) => db.clearUserCaches(userId)),
});
const appServices = createAppServicesLoader(async () => {
  const { createAppServices } = await import('./services/appServices');
  const services = createAppServices({ session });
  // Offline: keep the user's last >= 1,000 trades in IndexedDB while online.
  services.trades.historySync$.subscribe();
  return services;
});
session.auth.restore();
// A restored session goes straight to a signed-in screen: start loading its services now, beside the route's chunks,
// rather than after the guard runs.
if (session.auth.state.isAuthenticated) void appServices.load().catch(() => undefined);
router = createAppRouter({ session, appServices });

// The first render as a transition: React renders it in slices that yield to the browser (no single long task on a
// slow phone), while the static shell in index.html stays on screen until React commits.
const root = createRoot(document.getElementById('root') as HTMLElement);
startTransition(() => {
  root.render(
    <StrictMode>
      <EntryServicesProvider value={{ session, appServices }}>
        <RouterProvider router={router} />
      </EntryServicesProvider>
    </StrictMode>,
  );
});

// Register the service worker once the first screen has rendered (startPwa then waits for load and an idle moment:
// on a fast machine load comes before the lazy route has rendered); an update is offered as a toast (react-toastify
// loads only then).
const stopWaiting = router.subscribe('onRendered', () => {
  stopWaiting();
  void startPwa({
    onUpdateReady: (apply) =>
      void Promise.all([import('./pwa/UpdateToast'), loadToasts()]).then(([m]) => m.showUpdateToast(apply)),
  });
});
