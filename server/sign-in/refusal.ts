// How the sign-in policy says no: a status and a message a person can act on (and for a throttle, when to try again).
// The API's one error handler (http/plugins/errors.ts) answers it as it answers a handler's HttpError.
export class Refusal extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 429,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

/** 429 with Retry-After: "Too many failed sign-in attempts. Try again in 4 seconds." */
export function tooMany(what: string, waitMs: number): Refusal {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  const wait =
    seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return new Refusal(429, `${what}. Try again in ${wait}.`, { 'retry-after': String(seconds) });
}
