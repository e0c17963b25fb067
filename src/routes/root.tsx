import { Outlet } from '@tanstack/react-router';
import { Bounce, ToastContainer } from 'react-toastify';
import 'react-toastify/ReactToastify.css';
import { NoticeToasts } from '../features/toasts/NoticeToasts';
import { darkTheme } from '../styles/theme.css';

/** Toasts (spec section 2): top-right, auto-close after 5 s, closable, pause on hover, draggable (swipe). */
export function RootComponent() {
  // Toasts take the app's theme at start (a quieter look than the saturated 'colored' one).
  const toastTheme = typeof document !== 'undefined' && document.documentElement.classList.contains(darkTheme) ? 'dark' : 'light';
  return (
    <>
      <Outlet />
      <NoticeToasts />
      <ToastContainer position="top-right" autoClose={5000} closeButton pauseOnHover draggable newestOnTop transition={Bounce} theme={toastTheme} />
    </>
  );
}
