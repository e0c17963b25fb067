// The time zone a user reads dates in: an IANA name (Europe/Paris), saved per user so it follows them across devices,
// or none, meaning the browser's own. One rule for what counts as a zone, read by the server's schema and the Profile
// form alike. Only Intl, no runtime dependencies: the list is the runtime's IANA database (ICU).

/** Longest zone name accepted ('America/Argentina/ComodRivadavia' is 32). */
export const TIME_ZONE_MAX_LENGTH = 64;

export const TIME_ZONE_INVALID = 'Choose a time zone from the list';

/** IANA's own shape: 'UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5'; never an offset such as +05:00. */
const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)*$/;

let known: ReadonlySet<string> | null = null;

/** The runtime's zone names. ICU lists the canonical names ('Asia/Calcutta'), not always what browsers list. */
function knownZones(): ReadonlySet<string> {
  known ??= new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  return known;
}

/** The runtime's canonical name of a zone, or null when it does not know the name. */
function canonical(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * Whether `name` is an IANA zone: in the runtime's list, or an IANA alias of a listed zone ('Asia/Kolkata' for ICU's
 * 'Asia/Calcutta', 'Etc/UTC'), which is what a newer browser may offer. Offsets and case variants are refused.
 */
export function isTimeZone(name: string): boolean {
  if (name.length > TIME_ZONE_MAX_LENGTH || !IANA_NAME.test(name)) return false;
  if (knownZones().has(name)) return true;
  const resolved = canonical(name);
  return resolved !== null && knownZones().has(resolved);
}

/** The zone this runtime (the browser) reads dates in; UTC when it does not say. */
export function deviceTimeZone(): string {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/** The zone dates are shown in for a user: the one they chose, else the device's. */
export function displayTimeZone(chosen: string | null | undefined): string {
  return chosen && isTimeZone(chosen) ? chosen : deviceTimeZone();
}

/** The zones a user can choose from, sorted; `also` (the device's, the saved one) is included when missing. */
export function timeZoneChoices(...also: (string | null | undefined)[]): string[] {
  const names = new Set(Intl.supportedValuesOf('timeZone'));
  names.add('UTC');
  for (const zone of also) if (zone && isTimeZone(zone)) names.add(zone);
  return [...names].sort();
}
