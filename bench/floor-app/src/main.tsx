import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  RouterProvider,
} from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/ReactToastify.css';
import { auth$ } from './auth';

// One entry: React, the router, the auth state (RxJS) and the toast container; each screen is a lazy route, the
// code-splitting TanStack Router's docs recommend, as the product does. The signed-in screen brings socket.io-client,
// idb and date-fns.
const rootRoute = createRootRoute({
  component: () => (
    <>
      <Outlet />
      <ToastContainer position="top-right" autoClose={5000} />
    </>
  ),
});
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  component: lazyRouteComponent(() => import('./login'), 'Login'),
});
const dashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboard',
  beforeLoad: () => {
    if (!auth$.value.token) throw redirect({ to: '/login' });
  },
  component: lazyRouteComponent(() => import('./dashboard'), 'Dashboard'),
});
const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: auth$.value.token ? '/dashboard' : '/login' });
  },
});
const router = createRouter({ routeTree: rootRoute.addChildren([indexRoute, loginRoute, dashboardRoute]) });

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
