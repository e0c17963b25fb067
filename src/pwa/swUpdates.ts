/** Listeners of one signal; RxJS-free, since this loads on /login, where nothing else needs RxJS. */
export interface Signal {
  subscribe(listener: () => void): { unsubscribe(): void };
}

/** The part of workbox-window's Workbox this flow uses (tests pass a stand-in). */
export interface WorkboxLike {
  addEventListener(
    type: 'waiting' | 'controlling',
    listener: (event: { isExternal?: boolean; isUpdate?: boolean }) => void,
  ): void;
  messageSkipWaiting(): void;
  update(): Promise<unknown>;
}

export interface SwUpdatesDeps {
  workbox: WorkboxLike;
  reload: () => void;
  /** True while the user is in the middle of a form: then nothing reloads without their say. */
  isEditingForm: () => boolean;
}

export interface SwUpdates {
  /** A new version is installed and waiting (or already active from another tab): offer the Reload action. */
  updateReady$: Signal;
  /** The user's Reload: let the waiting worker take over, then reload once it controls the page. */
  applyUpdate(): void;
  /** Ask the server for a newer sw.js now. */
  checkForUpdate(): Promise<void>;
}

/**
 * The update flow: a new service worker waits (it never skips waiting on its own); the page offers 'A new version is
 * available' with Reload; Reload posts SKIP_WAITING and reloads when the new worker controls the page. When another tab
 * made the switch, this tab reloads by itself only if no form is being edited, otherwise it offers Reload too.
 */
export function createSwUpdates(deps: SwUpdatesDeps): SwUpdates {
  const listeners = new Set<() => void>();
  const ready = { next: () => [...listeners].forEach((l) => l()) };
  let requested = false;
  let newWorkerControls = false;

  deps.workbox.addEventListener('waiting', () => ready.next());
  deps.workbox.addEventListener('controlling', (event) => {
    // The first install claiming the page is not an update: nothing to reload.
    if (event.isUpdate === false && !requested) return;
    newWorkerControls = true;
    if (requested || !deps.isEditingForm()) deps.reload();
    else ready.next();
  });

  return {
    updateReady$: {
      subscribe(listener) {
        listeners.add(listener);
        return { unsubscribe: () => void listeners.delete(listener) };
      },
    },
    applyUpdate() {
      if (newWorkerControls) return deps.reload();
      requested = true;
      deps.workbox.messageSkipWaiting();
    },
    checkForUpdate: async () => {
      try {
        await deps.workbox.update();
      } catch {
        // Offline or server away: the next check will do.
      }
    },
  };
}
