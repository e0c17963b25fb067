// One product name everywhere: the static files a browser reads before any script runs cannot import the constant,
// so this test holds them to it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from './product';

const root = join(import.meta.dirname, '..');

describe('product name', () => {
  it('is the page title, the boot screen and the manifest name', () => {
    const html = readFileSync(join(root, 'index.html'), 'utf8');
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]?.startsWith(`${PRODUCT_NAME} — `)).toBe(true);
    expect(html).toContain(`<span class="boot-name">${PRODUCT_NAME}</span>`);
    const manifest = JSON.parse(readFileSync(join(root, 'manifest.webmanifest'), 'utf8')) as Record<string, string>;
    expect(manifest.short_name).toBe(PRODUCT_NAME);
    expect(manifest.name?.startsWith(`${PRODUCT_NAME} — `)).toBe(true);
  });
});
