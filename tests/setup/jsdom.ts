// jsdom setup for the client project: a real IndexedDB implementation, matchMedia, and a clean DOM after each test.
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// Route screens are lazy chunks: the first render of a screen in a file waits for its module to load.
configure({ asyncUtilTimeout: 8000 });

// jsdom has no layout; the router's scroll restoration calls scrollTo.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  localStorage.clear();
});
