import type { AppServices } from './appServices';

/**
 * The signed-in layer's services, built once on first use: the guard of the signed-in routes awaits `load()` before
 * the layout renders, so the layout and every screen below it read `current` synchronously. main.tsx hands in a
 * dynamic import, so RxJS, IndexedDB and the domain services are not in the entry chunk.
 */
export interface AppServicesLoader {
  load(): Promise<AppServices>;
  readonly current: AppServices | null;
}

export function createAppServicesLoader(build: () => Promise<AppServices>): AppServicesLoader {
  let current: AppServices | null = null;
  let pending: Promise<AppServices> | null = null;
  return {
    load() {
      // A failed load (a chunk that could not be fetched) is tried again next time rather than remembered.
      pending ??= build().then(
        (s) => (current = s),
        (err: unknown) => {
          pending = null;
          throw err;
        },
      );
      return pending;
    },
    get current() {
      return current;
    },
  };
}
