import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { PublicUser } from '../../../contract/entities';
import { applyThemeMode, readThemeMode, type ThemeMode } from '../../styles/themeMode';
import * as styles from './layout.css';

/** Top-bar user menu: username, e-mail, role, Profile, Settings, Notifications, theme, Logout. Keyboard: arrows, Escape, Tab out. */
export function UserMenu({ user, onLogout }: { user: PublicUser; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const [theme, setTheme] = useState<ThemeMode>(readThemeMode);
  const menuId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    wrap.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const onKey = (e: KeyboardEvent) => {
    const items = [...(wrap.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') {
      setOpen(false);
      button.current?.focus();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      items[(i + 1) % items.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i - 1 + items.length) % items.length]?.focus();
    } else if (e.key === 'Tab') setOpen(false);
  };

  const cycleTheme = () => {
    const next: ThemeMode = theme === 'system' ? 'light' : theme === 'light' ? 'dark' : 'system';
    applyThemeMode(next);
    setTheme(next);
  };

  return (
    <div className={styles.menuWrap} ref={wrap} onKeyDown={onKey}>
      <button
        ref={button}
        type="button"
        className={styles.userButton}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`User menu for ${user.username}`}
        onClick={() => setOpen((o) => !o)}
      >
        <span className={styles.avatarInitial} data-initial={user.username.charAt(0)} aria-hidden="true" />
        <span className={styles.userButtonName}>{user.username}</span>
      </button>
      {open && (
        <div id={menuId} role="menu" className={styles.menu} aria-label="User menu">
          <div className={styles.menuHeader}>
            <div className={styles.footerName}>{user.username}</div>
            <div className={styles.footerRole} style={{ textTransform: 'none' }}>
              {user.email}
            </div>
            <div className={styles.footerRole}>{user.role}</div>
          </div>
          <Link role="menuitem" to="/profile" className={styles.menuItem} onClick={() => setOpen(false)}>
            Profile
          </Link>
          <Link role="menuitem" to="/settings" className={styles.menuItem} onClick={() => setOpen(false)}>
            Settings
          </Link>
          <Link role="menuitem" to="/notifications" className={styles.menuItem} onClick={() => setOpen(false)}>
            Notifications
          </Link>
          <button role="menuitem" type="button" className={styles.menuItem} onClick={cycleTheme}>
            Theme: {theme === 'system' ? 'System' : theme === 'light' ? 'Light' : 'Dark'}
          </button>
          <button
            role="menuitem"
            type="button"
            className={styles.menuItem}
            onClick={() => {
              setOpen(false);
              onLogout();
            }}
          >
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
