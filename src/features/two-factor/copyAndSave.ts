// Copy to the clipboard and save as a file: what a phone needs when it cannot scan its own screen.
import { saveFile } from '../../lib/download';

/** The Clipboard API exists only in secure contexts (HTTPS or localhost); a self-hosted server on plain HTTP lacks it. */
export async function copyText(text: string): Promise<boolean> {
  if (typeof navigator === 'undefined' || !navigator.clipboard?.writeText) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Refused (no permission, document not focused): the caller says so instead of pretending.
    return false;
  }
}

/** Hands text to the browser's download as a file (a plain `data:` link would be blocked by the CSP on some hosts). */
export const saveTextFile = (text: string, fileName: string): void =>
  saveFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), fileName);

/** The recovery codes file: one code a line, with what they are for, so the file makes sense when found later. */
export function recoveryCodesText(codes: readonly string[], appName: string) {
  return [
    `${appName} recovery codes`,
    'Each code signs you in once if you lose your authenticator.',
    '',
    ...codes,
    '',
  ].join('\n');
}
