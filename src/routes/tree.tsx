import {
  createRootRouteWithContext,
  createRoute,
  lazyRouteComponent,
  redirect,
  stripSearchParams,
} from '@tanstack/react-router';
import type { AppServicesLoader } from '../services/appServicesLoader';
import type { Session } from '../services/session';
import { Spinner } from '../ui/Spinner';
import { RootComponent } from './root';
import { TRADES_SEARCH_DEFAULTS, validateTradesSearch } from './tradesSearch';

// Code-based route tree (spec section 2). Screens are lazy chunks so /login's first load stays small.

export interface RouterContext {
  /** The entry's REST client and auth service. */
  session: Session;
  /** The signed-in layer's services, loaded by the guard before the signed-in layout renders. */
  appServices: AppServicesLoader;
}

/** Only same-origin paths are accepted as a place to return to after sign-in. */
export function safeRedirect(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/login')
    ? value
    : undefined;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: RootComponent });

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
    const r = safeRedirect(search.redirect);
    return r ? { redirect: r } : {};
  },
  beforeLoad: async ({ context }) => {
    const s = await context.session.auth.ready();
    if (s.isAuthenticated) throw redirect({ to: '/dashboard' });
  },
  component: lazyRouteComponent(() => import('./login'), 'LoginScreen'),
});

const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: lazyRouteComponent(() => import('./contactAdmin'), 'ForgotPasswordScreen'),
});
const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  component: lazyRouteComponent(() => import('./register'), 'RegisterScreen'),
});

/**
 * The guard: every route below needs a session; while it is restored, and the signed-in layer's services load (a
 * chunk of their own, fetched in parallel with the layout's), a spinner shows.
 */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    const s = await context.session.auth.ready();
    if (!s.isAuthenticated) {
      const back = safeRedirect(location.href);
      throw redirect({ to: '/login', search: back && back !== '/' ? { redirect: back } : {} });
    }
    await context.appServices.load();
  },
  pendingComponent: () => <Spinner label="Loading..." />,
  component: lazyRouteComponent(() => import('./appLayout'), 'AppLayout'),
});

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/dashboard' });
  },
});
const dashboardRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/dashboard',
  component: lazyRouteComponent(() => import('./dashboard'), 'DashboardScreen'),
});
const tradesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/trades',
  validateSearch: validateTradesSearch,
  search: { middlewares: [stripSearchParams(TRADES_SEARCH_DEFAULTS)] },
  component: lazyRouteComponent(() => import('./trades'), 'TradesScreen'),
});
const tradeDetailRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/trades/$id',
  component: lazyRouteComponent(() => import('./tradeDetail'), 'TradeDetailScreen'),
});
const balancesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/balances',
  component: lazyRouteComponent(() => import('./balances'), 'BalancesScreen'),
});
const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: lazyRouteComponent(() => import('./settings'), 'SettingsScreen'),
});
const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/profile',
  component: lazyRouteComponent(() => import('./profile'), 'ProfileScreen'),
});
const adminUsersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/admin/users',
  component: lazyRouteComponent(() => import('./adminUsers'), 'AdminUsersScreen'),
});
const adminAuditRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/admin/audit',
  component: lazyRouteComponent(() => import('./adminAudit'), 'AdminAuditScreen'),
});
const notificationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/notifications',
  component: lazyRouteComponent(() => import('./notifications'), 'NotificationsScreen'),
});
/** Any other path goes to the dashboard (after sign-in, if needed). */
const fallbackRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/dashboard' });
  },
});

export const routeTree = rootRoute.addChildren([
  loginRoute,
  forgotRoute,
  registerRoute,
  appRoute.addChildren([
    indexRoute,
    dashboardRoute,
    tradesRoute,
    tradeDetailRoute,
    balancesRoute,
    settingsRoute,
    profileRoute,
    notificationsRoute,
    adminUsersRoute,
    adminAuditRoute,
    fallbackRoute,
  ]),
]);
