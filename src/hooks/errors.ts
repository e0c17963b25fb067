// How a screen words a failed call. The REST client's error type belongs to the services; screens ask these
// questions of whatever a call threw, so no feature reaches into the services to inspect it.
import { ApiError, messageOf as serverMessageOr } from '../services/http';
import { PushSetupError } from '../services/notifications/pushDevice';

/** The server's message when it sent one, else the screen's own (the spec's) text. */
export const messageOf: (err: unknown, fallback: string) => string = serverMessageOr;

/** The server answered (a refusal), as opposed to the request never reaching it. */
export const serverAnswered = (err: unknown): err is ApiError => err instanceof ApiError && err.status !== 0;

/**
 * The refusal's messages under the form's own field names (`fields` maps the wire's path to the form's key; the first
 * message of a field wins). Null when the failure was not an answer of the API, so the form keeps its marks.
 */
export function fieldErrorsOf<K extends string>(
  err: unknown,
  fields: Readonly<Record<string, K>>,
): Partial<Record<K, string>> | null {
  if (!(err instanceof ApiError)) return null;
  const marked: Partial<Record<K, string>> = {};
  for (const item of err.errors ?? []) {
    const key = item.path ? fields[item.path] : undefined;
    if (key && !marked[key]) marked[key] = item.msg;
  }
  return marked;
}

/** A push set-up failure says what to do in its own words; any other failure as messageOf does. */
export const pushErrorText = (err: unknown, fallback: string): string =>
  err instanceof PushSetupError ? err.message : messageOf(err, fallback);
