import { createRouter, type RouterHistory } from '@tanstack/react-router';
import type { AppServices } from './services/appServices';
import { routeTree } from './routes/tree';

export function createAppRouter(services: AppServices, history?: RouterHistory) {
  return createRouter({ routeTree, context: { services }, ...(history ? { history } : {}), defaultPreload: 'intent', defaultPendingMs: 300, scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
