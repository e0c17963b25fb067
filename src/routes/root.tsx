import { Outlet } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { loadToasts, toastsWanted } from '../features/toasts/notices';
import { useAuth } from '../hooks/services';

const ToastHost = lazy(() => import('../features/toasts/ToastHost').then((m) => ({ default: m.ToastHost })));

/** The app's frame: the route, and the toast container once a toast is asked for or a session is open. */
export function RootComponent() {
  const wanted = useSyncExternalStore(toastsWanted.subscribe, toastsWanted.get);
  const { isAuthenticated } = useAuth();
  // Signed in, toasts come at any time (trades, load failures, the session's end): have the library ready.
  useEffect(() => {
    if (isAuthenticated) void loadToasts();
  }, [isAuthenticated]);
  return (
    <>
      <Outlet />
      {wanted && (
        <Suspense fallback={null}>
          <ToastHost />
        </Suspense>
      )}
    </>
  );
}
