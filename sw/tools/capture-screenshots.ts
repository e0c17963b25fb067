// Captures the install-dialog screenshots (manifest `screenshots`) from the running app: the dashboard, signed in,
// once narrow (phone, 390×844 at 2×) and once wide (1440×900). Run against a server with some data:
//   BASE=http://127.0.0.1:8080 EMAIL=... PASSWORD=... npx tsx sw/tools/capture-screenshots.ts
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tools/chromium';

const base = process.env.BASE ?? 'http://127.0.0.1:8080';
const email = process.env.EMAIL ?? '';
const password = process.env.PASSWORD ?? '';
const outDir = fileURLToPath(new URL('../../public/screenshots/', import.meta.url));
mkdirSync(outDir, { recursive: true });

const shots = [
  { file: 'dashboard-narrow.png', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 },
  { file: 'dashboard-wide.png', viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 },
];

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const shot of shots) {
    const context = await browser.newContext({
      viewport: shot.viewport,
      deviceScaleFactor: shot.deviceScaleFactor,
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${base}/dashboard`);
    await page.getByTestId('price-BTC/USDT').getByText('$', { exact: false }).first().waitFor();
    await page.waitForTimeout(1500); // let the toasts of sign-in fade and the numbers settle
    await page.evaluate(() => document.querySelectorAll('.Toastify').forEach((t) => t.remove()));
    await page.screenshot({ path: `${outDir}${shot.file}` });
    await context.close();
    console.log(`wrote public/screenshots/${shot.file}`);
  }
} finally {
  await browser.close();
}
