import { Bounce, ToastContainer } from 'react-toastify';
import 'react-toastify/ReactToastify.css';
import { darkTheme } from '../../styles/theme.css';

export const MAX_VISIBLE_TOASTS = 3;

/**
 * Toasts (spec section 2): top-right, auto-close after 5 s, closable, pause on hover, draggable (swipe). At most three
 * at once (the rest wait their turn); on phones they start below the top bar (styles/global.css.ts). A lazy chunk:
 * the root mounts it on the first toast or with a session (features/toasts/notices.ts).
 */
export function ToastHost() {
  // Toasts take the app's theme at start (a quieter look than the saturated 'colored' one).
  const toastTheme =
    typeof document !== 'undefined' && document.documentElement.classList.contains(darkTheme) ? 'dark' : 'light';
  return (
    <ToastContainer
      limit={MAX_VISIBLE_TOASTS}
      position="top-right"
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
