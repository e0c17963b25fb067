// The CSP allows no inline style by default ('unsafe-inline' would let injected markup restyle the page). The few
// inline <style> blocks the server itself sends — index.html's first-paint splash, the "being built" pages — are
// allowed one by one by the hash of their content, which CSP level 2 defines for exactly this.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The look of the server's own notice pages (http/client/index.ts): one <style> element, allowed by its hash. */
export const NOTICE_STYLE =
  '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}</style>';

/** CSP source expressions ('sha256-…') for every <style> element's content in `html`. */
export function inlineStyleHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/gi)) {
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return hashes;
}

/**
 * The hashes of the built index.html's inline styles, read again when the file changes (the client may be built
 * after the server started).
 */
export function clientStyleHashes(clientDir: string): () => string[] {
  const file = join(clientDir, 'index.html');
  let seen = { mtimeMs: -1, size: -1 };
  let hashes: string[] = [];
  return () => {
    try {
      const stats = statSync(file);
      if (stats.mtimeMs !== seen.mtimeMs || stats.size !== seen.size) {
        hashes = inlineStyleHashes(readFileSync(file, 'utf8'));
        seen = { mtimeMs: stats.mtimeMs, size: stats.size };
      }
    } catch {
      hashes = [];
    }
    return hashes;
  };
}
