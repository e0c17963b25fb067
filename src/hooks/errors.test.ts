import { describe, expect, it } from 'vitest';
import { ApiError } from '../services/http';
import { PushSetupError } from '../services/notifications/pushDevice';
import { fieldErrorsOf, messageOf, pushErrorText, serverAnswered } from './errors';

const refusal = new ApiError(
  400,
  'Min spread must be at most 10%',
  [
    { msg: 'Min spread must be at most 10%', path: 'minSpread' },
    { msg: 'a second word on the same field', path: 'minSpread' },
    { msg: 'Max loss must be 0 or more', path: 'maxLoss' },
    { msg: 'a field the form does not show', path: 'somethingElse' },
    { msg: 'the whole request' },
  ],
  'Min spread must be at most 10%',
);
const offline = new ApiError(0, 'Network error: the server could not be reached');

describe('how a screen words a failed call', () => {
  it("marks each of the form's fields with the server's first word on it", () => {
    expect(fieldErrorsOf(refusal, { minSpread: 'minSpreadPercent', maxLoss: 'maxLoss' })).toEqual({
      minSpreadPercent: 'Min spread must be at most 10%',
      maxLoss: 'Max loss must be 0 or more',
    });
    // An answer without fields clears the marks; a failure that is no answer of the API leaves them.
    expect(fieldErrorsOf(offline, { minSpread: 'minSpreadPercent' })).toEqual({});
    expect(fieldErrorsOf(new Error('boom'), { minSpread: 'minSpreadPercent' })).toBeNull();
  });

  it("tells a server's refusal from a request that never arrived", () => {
    expect(serverAnswered(refusal)).toBe(true);
    expect(serverAnswered(offline)).toBe(false);
    expect(serverAnswered(new Error('boom'))).toBe(false);
  });

  it("prefers the server's text, a push set-up's own words, else the screen's", () => {
    expect(messageOf(refusal, 'fallback')).toBe('Min spread must be at most 10%');
    expect(messageOf(offline, 'fallback')).toBe('fallback');
    expect(pushErrorText(new PushSetupError('Allow notifications first'), 'fallback')).toBe(
      'Allow notifications first',
    );
    expect(pushErrorText(refusal, 'fallback')).toBe('Min spread must be at most 10%');
    expect(pushErrorText(new Error('boom'), 'fallback')).toBe('fallback');
  });
});
