// The app icon as SVG: two venue price lines that part and meet again, with the spread between them marked —
// the whole product in one picture. `inset` shrinks the artwork into the maskable safe zone.

export interface IconArtOptions {
  /** Fraction of the canvas the artwork may use (1 = full; maskable icons keep art inside the centre 80 % circle). */
  inset: number;
  /** Rounded-square background (any-purpose icons) or full bleed (maskable: the platform applies its own mask). */
  rounded: boolean;
}

export function iconSvg({ inset, rounded }: IconArtOptions): string {
  const size = 512;
  const radius = rounded ? 112 : 0;
  const scale = inset;
  const offset = (size * (1 - scale)) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#13244a"/>
      <stop offset="1" stop-color="#0b1220"/>
    </linearGradient>
    <linearGradient id="gap" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#22d3a6" stop-opacity="0.35"/>
      <stop offset="1" stop-color="#38bdf8" stop-opacity="0.12"/>
    </linearGradient>
  </defs>
  <rect width="${size}" height="${size}" rx="${radius}" fill="url(#bg)"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    <path d="M 64 300 C 150 300 190 170 256 170 C 322 170 362 300 448 300 L 448 300 C 362 300 322 342 256 342 C 190 342 150 300 64 300 Z" fill="url(#gap)"/>
    <path d="M 64 300 C 150 300 190 170 256 170 C 322 170 362 300 448 300" fill="none" stroke="#22d3a6" stroke-width="30" stroke-linecap="round"/>
    <path d="M 64 300 C 150 300 190 342 256 342 C 322 342 362 300 448 300" fill="none" stroke="#38bdf8" stroke-width="30" stroke-linecap="round"/>
    <g stroke="#fbbf24" stroke-width="18" stroke-linecap="round" stroke-linejoin="round" fill="none">
      <path d="M 256 212 L 256 300"/>
      <path d="M 232 236 L 256 212 L 280 236"/>
      <path d="M 232 276 L 256 300 L 280 276"/>
    </g>
    <circle cx="64" cy="300" r="22" fill="#e2e8f0"/>
    <circle cx="448" cy="300" r="22" fill="#e2e8f0"/>
  </g>
</svg>`;
}

/** Small shortcut glyphs for the manifest's shortcuts menu. */
export function shortcutSvg(kind: 'dashboard' | 'trades'): string {
  const glyph =
    kind === 'dashboard'
      ? `<rect x="22" y="22" width="22" height="22" rx="4"/><rect x="52" y="22" width="22" height="22" rx="4"/>
         <rect x="22" y="52" width="22" height="22" rx="4"/><rect x="52" y="52" width="22" height="22" rx="4"/>`
      : `<rect x="22" y="24" width="52" height="9" rx="4"/><rect x="22" y="43" width="52" height="9" rx="4"/>
         <rect x="22" y="62" width="36" height="9" rx="4"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96">
  <rect width="96" height="96" rx="22" fill="#13244a"/>
  <g fill="#22d3a6">${glyph}</g>
</svg>`;
}
