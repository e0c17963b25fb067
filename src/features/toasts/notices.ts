import type { ReactNode } from 'react';
import type * as ReactToastify from 'react-toastify';
import type { NoticeLevel } from '../../services/notify';

// Toasts without react-toastify in the entry chunk: the sign-in screens (the first load of /login) show a toast only
// after a sign-in attempt, so the library and its container load on the first toast, or with the signed-in layout
// (which shows toasts from the start). react-toastify queues toasts asked for before its container mounts.

type Toastify = typeof ReactToastify;

let toastify: Promise<Toastify> | null = null;
let wanted = false;
const listeners = new Set<() => void>();

/** Loads react-toastify and has the root mount its container (RootComponent renders ToastHost once wanted). */
export function loadToasts(): Promise<Toastify> {
  if (!wanted) {
    wanted = true;
    for (const l of [...listeners]) l();
  }
  toastify ??= import('react-toastify');
  return toastify;
}

/** For useSyncExternalStore: whether any toast has been asked for yet. */
export const toastsWanted = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  get: () => wanted,
};

export interface Notice {
  level: NoticeLevel;
  message: ReactNode;
  /** Same key = one toast at a time. */
  key?: string;
}

export function showNotice(n: Notice): void {
  void loadToasts().then(({ toast }) => {
    // Same key = one toast at a time: a newer notice with the key replaces the text of the one showing.
    if (n.key && toast.isActive(n.key)) toast.update(n.key, { render: n.message, type: n.level });
    else toast[n.level](n.message, n.key ? { toastId: n.key } : {});
  });
}

/** The one key of a sign-in's toasts: a later refusal or the success replaces the one showing, never stands beside it. */
export const SIGN_IN_ERROR_KEY = 'sign-in';
