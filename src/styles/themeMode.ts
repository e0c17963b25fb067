import { darkTheme, lightTheme } from './theme.css';

export type ThemeMode = 'system' | 'light' | 'dark';
const KEY = 'theme';

export function readThemeMode(): ThemeMode {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Puts the theme class on <html>; 'system' follows the OS setting, also when it changes later. */
export function applyThemeMode(mode: ThemeMode): void {
  try {
    if (mode === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, mode);
  } catch {
    // Private mode without storage: the choice lasts for this visit only.
  }
  const dark = mode === 'dark' || (mode === 'system' && systemPrefersDark());
  const root = document.documentElement;
  root.classList.toggle(darkTheme, dark);
  root.classList.toggle(lightTheme, !dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}

export function watchSystemTheme(): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const mq = matchMedia('(prefers-color-scheme: dark)');
  const onChange = () => {
    if (readThemeMode() === 'system') applyThemeMode('system');
  };
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}
