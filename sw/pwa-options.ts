import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import { THEME_COLOR_DARK, THEME_COLOR_LIGHT } from './theme-colors';

/**
 * vite-plugin-pwa options for our hand-written service worker (sw/sw.ts).
 * - injectManifest: we own the routing (API and socket never cached), workbox only injects the precache list.
 * - injectRegister false: the default registration script is render-blocking; src/pwa registers after first render.
 * - manifest false: the manifest is the hand-written top-level manifest.webmanifest, emitted and linked by
 *   webManifestPlugin() below, so the plugin neither generates nor links one.
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
    // the manifest and the icons. Screenshots are only for the install dialog: not worth precaching.
    globPatterns: ['**/*.{js,css,html,webmanifest,svg,png,ico,woff2}'],
    globIgnores: ['screenshots/**', 'sw.js', 'workbox-*.js'],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
  devOptions: { enabled: false },
};

const MANIFEST_SOURCE = fileURLToPath(new URL('../manifest.webmanifest', import.meta.url));

/**
 * Emits the top-level manifest.webmanifest into the build (before the service-worker build globs dist/, so it is
 * precached), serves it in dev, and adds to index.html's head the manifest link, the theme-color metas for both
 * colour schemes and the apple-touch-icon — so index.html itself needs no PWA lines.
 */
export function webManifestPlugin(): Plugin {
  return {
    name: 'arbitrage-pwa:web-manifest',
    configureServer(server) {
      server.middlewares.use('/manifest.webmanifest', (_req, res) => {
        res.setHeader('Content-Type', 'application/manifest+json');
        res.end(readFileSync(MANIFEST_SOURCE));
      });
    },
    buildStart() {
      this.addWatchFile(MANIFEST_SOURCE);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: readFileSync(MANIFEST_SOURCE) });
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        { tag: 'link', attrs: { rel: 'manifest', href: '/manifest.webmanifest' }, injectTo: 'head' },
        {
          tag: 'meta',
          attrs: { name: 'theme-color', media: '(prefers-color-scheme: light)', content: THEME_COLOR_LIGHT },
          injectTo: 'head',
        },
        {
          tag: 'meta',
          attrs: { name: 'theme-color', media: '(prefers-color-scheme: dark)', content: THEME_COLOR_DARK },
          injectTo: 'head',
        },
        { tag: 'link', attrs: { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon-180.png' }, injectTo: 'head' },
        { tag: 'link', attrs: { rel: 'icon', type: 'image/svg+xml', href: '/icons/icon.svg' }, injectTo: 'head' },
      ],
    },
  };
}

/** Everything the PWA needs in vite.config.ts: `plugins: [react(), vanillaExtractPlugin(), ...pwaPlugins()]`. */
export function pwaPlugins(): Plugin[] {
  return [webManifestPlugin(), ...VitePWA(pwaOptions)];
}
