import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { pwaOptions } from './sw/pwa-options';
import { precompress } from './tools/precompress';

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
      // The shell in index.html paints without any script, so the app's scripts are not first-paint resources: low
      // fetch priority says so (nothing else competes on first load; the module script still runs as soon as it lands).
      html.source = html.source.replace(/<(script type="module"|link rel="modulepreload") /g, '<$1 fetchpriority="low" ');
      html.source = html.source.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
        const css = bundle[file];
        if (!css || css.type !== 'asset') return tag;
        delete bundle[file];
        return `<style>${String(css.source).replace(/<\/style/gi, '<\\/style')}</style>`;
      });
    },
  };
}

// The PWA build: React, vanilla-extract (zero-runtime CSS) and the service worker (options in sw/pwa-options.ts).
// Route screens are lazy chunks; /login's first load carries only what it needs.
export default defineConfig({
  plugins: [vanillaExtractPlugin(), react(), VitePWA(pwaOptions), inlineStylesheet(), precompress()],
  // react-toastify's default entry injects its stylesheet from JavaScript at run time; the unstyled entry plus the
  // stylesheet imported in src/routes/root.tsx ships the same CSS as CSS (smaller first-load JS, no style injection).
  resolve: { alias: [{ find: /^react-toastify$/, replacement: 'react-toastify/unstyled' }] },
  build: { target: 'es2022', sourcemap: false, cssCodeSplit: false },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/socket.io': { target: 'ws://127.0.0.1:3000', ws: true } } },
});
