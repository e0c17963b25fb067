import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { ServicesProvider } from './hooks/services';
import { createAppRouter } from './router';
import { startPwa } from './pwa';
import { createAppServices } from './services/appServices';
import './styles/global.css';
import { applyThemeMode, readThemeMode, watchSystemTheme } from './styles/themeMode';

// Composition root: services, router, theme. No inline script in index.html (CSP script-src 'self').
applyThemeMode(readThemeMode());
watchSystemTheme();

let router: ReturnType<typeof createAppRouter> | null = null;
const services = createAppServices({
  // A 401 on any call but login: the session is cleared and the browser goes to /login.
  onSessionExpired: () => {
    const here = router?.state.location.href;
    void router?.navigate({ to: '/login', search: here && here !== '/' && !here.startsWith('/login') ? { redirect: here } : {} });
  },
});
services.auth.restore();
router = createAppRouter(services);

// The first render as a transition: React renders it in slices that yield to the browser (no single long task on a
// slow phone), while the static shell in index.html stays on screen until React commits.
const root = createRoot(document.getElementById('root') as HTMLElement);
startTransition(() => {
  root.render(
    <StrictMode>
      <ServicesProvider services={services}>
        <RouterProvider router={router} />
      </ServicesProvider>
    </StrictMode>,
  );
});

// Offline: keep the user's last >= 1,000 trades in IndexedDB while online; register the service worker after load.
services.trades.historySync$.subscribe();
void startPwa();
