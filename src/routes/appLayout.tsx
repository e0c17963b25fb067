import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { RealtimeToasts } from '../features/toasts/RealtimeToasts';
import { useWarmDomains } from '../hooks/data';
import { SignedInServices, useAuth, useServices } from '../hooks/services';
import { useTimeZone } from '../hooks/timeZone';
import { NoticeToasts } from '../features/toasts/NoticeToasts';
import { ConnectionDot, GaveUpBanner } from '../features/layout/ConnectionStatus';
import { OfflineBanner } from '../features/offline/OfflineBanner';
import * as styles from '../features/layout/layout.css';
import { MarketLabel } from '../features/layout/MarketLabel';
import { HaltBanner } from '../features/kill-switch/HaltBanner';
import { EnrolReminder } from '../features/two-factor/EnrolReminder';
import { UserMenu } from '../features/layout/UserMenu';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { PRODUCT_NAME } from '../../contract/product';
import { Button } from '../ui/Button';

const MAIN_LINKS = [
  { to: '/dashboard', label: 'Dashboard', icon: '▦' },
  { to: '/trades', label: 'Trades', icon: '⇄' },
  { to: '/balances', label: 'Balances', icon: '◎' },
  { to: '/settings', label: 'Settings', icon: '⚙' },
] as const;

const TITLES: Record<string, string> = {
  '/dashboard': 'Dashboard',
  '/trades': 'Trades',
  '/balances': 'Balances',
  '/settings': 'Settings',
  '/profile': 'Profile',
  '/notifications': 'Notifications',
  '/admin/users': 'User Management',
  '/admin/audit': 'Audit Log',
};

/** The top bar names the screen; a trade's own page is "Trade details", not the product's name. */
const titleOf = (pathname: string): string =>
  TITLES[pathname] ?? (pathname.startsWith('/trades/') ? 'Trade details' : PRODUCT_NAME);

const ADMIN_LINKS = [
  { to: '/admin/users', label: 'User Management', icon: '◈' },
  { to: '/admin/audit', label: 'Audit Log', icon: '☰' },
] as const;

/** The signed-in layout: the signed-in layer's services (loaded by the guard) for everything below it. */
export function AppLayout() {
  return (
    <SignedInServices>
      <AppShell />
      <NoticeToasts />
    </SignedInServices>
  );
}

function AppShell() {
  const services = useServices();
  const { auth } = services;
  useWarmDomains();
  const { user } = useAuth();
  const timeZone = useTimeZone();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [mobileOpen, setMobileOpen] = useState(false);
  const hamburgerRef = useRef<HTMLButtonElement>(null);

  useEffect(() => setMobileOpen(false), [pathname]);

  async function logout() {
    await auth.logout();
    toast.success('Logged out successfully');
    await navigate({ to: '/login' });
  }

  if (!user) return null;
  const isAdmin = user.role === 'admin';
  return (
    <div className={styles.shell}>
      <aside className={styles.sidebar} aria-label="Sidebar">
        <Link to="/dashboard" className={styles.brand}>
          <span className={styles.logo} aria-hidden="true">
            A
          </span>
          {PRODUCT_NAME}
        </Link>
        <nav className={styles.nav} aria-label="Main">
          {MAIN_LINKS.map((l) => (
            <Link key={l.to} to={l.to} className={styles.navLink}>
              <span aria-hidden="true">{l.icon}</span>
              {l.label}
            </Link>
          ))}
          {isAdmin && (
            <>
              <div className={styles.navSection}>Administration</div>
              {ADMIN_LINKS.map((l) => (
                <Link key={l.to} to={l.to} className={styles.navLink}>
                  <span aria-hidden="true">{l.icon}</span>
                  {l.label}
                </Link>
              ))}
            </>
          )}
        </nav>
        <div className={styles.sidebarFooter}>
          <span className={styles.avatar} aria-hidden="true">
            {user.username.charAt(0)}
          </span>
          <div style={{ minWidth: 0 }}>
            <div className={styles.footerName}>{user.username}</div>
            <div className={styles.footerRole}>{user.role}</div>
          </div>
        </div>
      </aside>
      <div className={styles.main}>
        <header className={styles.topbar}>
          <Button
            ref={hamburgerRef}
            variant="ghost"
            small
            className={styles.hamburger}
            aria-label="Menu"
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            onClick={() => setMobileOpen((o) => !o)}
          >
            ☰
          </Button>
          <h1 className={styles.topbarTitle}>{titleOf(pathname)}</h1>
          <ConnectionDot />
          <NotificationBell />
          <UserMenu user={user} onLogout={() => void logout()} />
          {mobileOpen && (
            <nav
              id="mobile-menu"
              className={styles.mobileMenu}
              aria-label="Mobile"
              onKeyDown={(e) => e.key === 'Escape' && (setMobileOpen(false), hamburgerRef.current?.focus())}
            >
              {[...MAIN_LINKS, ...(isAdmin ? ADMIN_LINKS : [])].map((l) => (
                <Link key={l.to} to={l.to} className={styles.navLink}>
                  <span aria-hidden="true">{l.icon}</span>
                  {l.label}
                </Link>
              ))}
            </nav>
          )}
        </header>
        {/* A landmark of its own: every piece of the page sits in one (axe 'region'). */}
        <div role="region" aria-label="Market and connection status">
          <HaltBanner />
          <EnrolReminder isAdmin={isAdmin} />
          <MarketLabel />
          <OfflineBanner status$={services.offline.status$} timeZone={timeZone} />
          <GaveUpBanner />
        </div>
        <main className={styles.content} id="main">
          <Outlet />
        </main>
      </div>
      <RealtimeToasts />
    </div>
  );
}
