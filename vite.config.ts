import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { pwaOptions } from './sw/pwa-options';
import { precompress } from './tools/precompress';
import { clientChunkGroups } from './tools/chunk-groups';

// First paint from HTML alone. All CSS in one stylesheet (cssCodeSplit off: the whole app's CSS is ~8 KB gzip), inlined into index.html's head so
// the first paint waits for no stylesheet request and no lazy chunk waits for one either. CSP allows inline styles.
function inlineStylesheet(): Plugin {
  return {
    name: 'inline-stylesheet',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset' || typeof html.source !== 'string') return;
      html.source = html.source.replace(
        /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g,
        (tag, file: string) => {
          const css = bundle[file];
          if (!css || css.type !== 'asset') return tag;
          delete bundle[file];
          return `<style>${String(css.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        },
      );
    },
  };
}

/** The landing route's module: a first visit (or any visit without a session) lands on the sign-in form. */
const LANDING_ROUTE = 'src/routes/login.tsx';

/** Chunks with their static imports, all the way down (what must be fetched before their code can run). */
export function staticClosure(starts: readonly string[], importsOf: (file: string) => readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of importsOf(file)) visit(dep);
  };
  for (const file of starts) visit(file);
  return [...seen];
}

// The usable sign-in form needs the entry and the landing route's lazy chunk with their imports. Without links in the
// HTML the route chunk would be asked for only once the entry had downloaded and run (a second round trip on a slow
// network). modulepreload links for all of them let it download at once, at the browser's normal (high) priority for
// module scripts. A signed-in start pays the route's few KB without running them. (Vite's own links cover only the
// entry's imports, and only with its polyfill, which every supported browser can do without.)
function preloadLandingRoute(): Plugin {
  return {
    name: 'preload-landing-route',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset' || typeof html.source !== 'string') return;
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      // The route's own chunk, or the group chunk that holds its module (tools/chunk-groups.ts).
      const holds = (c: (typeof chunks)[number]) =>
        c.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(LANDING_ROUTE));
      const route =
        chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(LANDING_ROUTE)) ?? chunks.find(holds);
      if (!route) throw new Error(`preload-landing-route: no chunk for ${LANDING_ROUTE}`);
      const importsOf = (file: string) => chunks.find((c) => c.fileName === file)?.imports ?? [];
      // Vite's own links (if any) are replaced, so the order is the fetch order wanted: the entry's imports (the
      // largest, React and the router) before the route's small chunks, on a connection that sends them one by one.
      const source = html.source.replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
      const entry = chunks.find((c) => c.isEntry && source.includes(`/${c.fileName}"`));
      if (!entry)
        throw new Error(
          `preload-landing-route: no entry script in index.html ${source.match(/<script[^>]*>/)?.[0]} ${chunks.filter((c) => c.isEntry).map((c) => c.fileName)}`,
        );
      const links = staticClosure([entry.fileName, route.fileName], importsOf)
        .filter((file) => file !== entry.fileName)
        .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
      html.source = source.replace(/(<script type="module"[^>]*><\/script>)/, `$1\n    ${links.join('\n    ')}`);
    },
  };
}

// The PWA build: React, vanilla-extract (zero-runtime CSS) and the service worker (options in sw/pwa-options.ts).
// Route screens are lazy chunks; /login's first load carries only what it needs.
export default defineConfig({
  plugins: [
    vanillaExtractPlugin(),
    react(),
    VitePWA(pwaOptions),
    inlineStylesheet(),
    preloadLandingRoute(),
    precompress(),
  ],
  // react-toastify's default entry injects its stylesheet from JavaScript at run time; the unstyled entry plus the
  // stylesheet imported in src/routes/root.tsx ships the same CSS as CSS (smaller first-load JS, no style injection).
  resolve: { alias: [{ find: /^react-toastify$/, replacement: 'react-toastify/unstyled' }] },
  // Every browser the app supports (es2022) has modulepreload: the polyfill would only cost first-load bytes.
  // Chunks grouped so a signed-in cold start fetches a handful of files, not dozens (tools/chunk-groups.ts).
  build: {
    target: 'es2022',
    sourcemap: false,
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { codeSplitting: clientChunkGroups() } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/socket.io': { target: 'ws://127.0.0.1:3000', ws: true } } },
});
