import type { VitePWAOptions } from 'vite-plugin-pwa';

/**
 * vite-plugin-pwa options for our hand-written service worker (sw/sw.ts).
 * - injectManifest: we own the routing (API and socket never cached), workbox only injects the precache list.
 * - injectRegister false: the default registration script is render-blocking; src/pwa registers after first render.
 * - manifest false: the manifest is the hand-written top-level manifest.webmanifest. index.html links it
 *   (`<link rel="manifest" href="/manifest.webmanifest">`); Vite's dev server serves it from the project root and the
 *   build emits it as a content-hashed asset (assets/manifest-<hash>.webmanifest) and rewrites the link, so a changed
 *   manifest is a new URL and the precache glob below picks it up. Its `id` ("/") keeps the app's identity stable
 *   across those URLs.
 */
export const pwaOptions: Partial<VitePWAOptions> = {
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
  injectRegister: false,
  manifest: false,
  includeManifestIcons: false,
  injectManifest: {
    // The shell (index.html), every JS/CSS chunk (route chunks are split, all precached so any route opens offline),
    // the manifest and the small icons. Screenshots and the 512 px icons serve only the install dialog and the
    // launcher, which fetch them themselves: not worth the bytes of every install.
    globPatterns: ['**/*.{js,css,html,webmanifest,svg,png,ico,woff2}'],
    globIgnores: ['screenshots/**', 'icons/icon-512.png', 'icons/maskable-512.png', 'sw.js'],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
  devOptions: { enabled: false },
};
