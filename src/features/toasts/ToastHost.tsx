import { useEffect } from 'react';
import { Bounce, ToastContainer } from 'react-toastify';
import 'react-toastify/ReactToastify.css';
import { darkTheme } from '../../styles/theme.css';
import { watchToastsKeepClear } from './keepClear';
import { forgetTradeToasts } from './tradeToast';

export const MAX_VISIBLE_TOASTS = 3;

/**
 * Toasts (spec section 2): auto-close after 5 s, closable, pause on hover, draggable (swipe). At most three at once
 * (the rest wait their turn). Bottom right, not the spec's top right: at the top they covered the top bar, its menus
 * and, on a phone, the first ~130 px of the screen; at the bottom they cover none of them at any width
 * (styles/global.css.ts; tests/e2e/toast-placement.test.ts measures it); a toast over the control just pressed scrolls
 * it clear (keepClear.ts). A lazy chunk: the root mounts it on the first
 * toast or with a session (features/toasts/notices.ts).
 */
export function ToastHost() {
  useEffect(() => forgetTradeToasts, []);
  useEffect(watchToastsKeepClear, []);
  // Toasts take the app's theme at start (a quieter look than the saturated 'colored' one).
  const toastTheme =
    typeof document !== 'undefined' && document.documentElement.classList.contains(darkTheme) ? 'dark' : 'light';
  return (
    <ToastContainer
      limit={MAX_VISIBLE_TOASTS}
      position="bottom-right"
      autoClose={5000}
      closeButton
      pauseOnHover
      draggable
      newestOnTop
      transition={Bounce}
      theme={toastTheme}
    />
  );
}
