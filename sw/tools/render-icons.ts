// Renders the PWA icons (PNG) from sw/tools/icon-art.ts in headless Chromium and writes them to public/icons.
// Run: npx tsx sw/tools/render-icons.ts   (re-run after changing the artwork; the PNGs are committed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { iconSvg, shortcutSvg } from './icon-art';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tools/chromium';

const outDir = fileURLToPath(new URL('../../public/icons/', import.meta.url));

const targets: Array<{ file: string; size: number; svg: string; transparent: boolean }> = [
  { file: 'icon-192.png', size: 192, svg: iconSvg({ inset: 1, rounded: true }), transparent: true },
  { file: 'icon-512.png', size: 512, svg: iconSvg({ inset: 1, rounded: true }), transparent: true },
  // Maskable: full-bleed background, artwork inside the 80 % safe circle.
  { file: 'maskable-512.png', size: 512, svg: iconSvg({ inset: 0.72, rounded: false }), transparent: false },
  { file: 'apple-touch-icon-180.png', size: 180, svg: iconSvg({ inset: 0.86, rounded: false }), transparent: false },
  { file: 'shortcut-dashboard-96.png', size: 96, svg: shortcutSvg('dashboard'), transparent: true },
  { file: 'shortcut-trades-96.png', size: 96, svg: shortcutSvg('trades'), transparent: true },
];

mkdirSync(outDir, { recursive: true });
const svg = iconSvg({ inset: 1, rounded: true });
writeFileSync(`${outDir}icon.svg`, svg);
writeFileSync(fileURLToPath(new URL('../../public/favicon.svg', import.meta.url)), svg);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const target of targets) {
    const page = await browser.newPage({ viewport: { width: target.size, height: target.size } });
    const img = target.svg.replace(/width="\d+" height="\d+"/, `width="${target.size}" height="${target.size}"`);
    await page.setContent(`<html><body style="margin:0;background:transparent">${img}</body></html>`);
    await page.screenshot({ path: `${outDir}${target.file}`, omitBackground: target.transparent });
    await page.close();
    console.log(`wrote public/icons/${target.file}`);
  }
} finally {
  await browser.close();
}
