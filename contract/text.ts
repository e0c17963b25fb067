// The one way the contract makes a string schema. Control characters (C0, DEL, C1) have no place in anything a person
// or a browser sends: PostgreSQL text cannot even hold NUL (a NUL reached the database and came back as a 500), and
// the others end up in logs and screens as invisible or terminal-altering bytes. Every text field of every request
// starts here, so the rule holds by construction; tests/server/api/openapi-text.test.ts fails for a string field of
// the OpenAPI document that did not. The rule is a pattern rather than a refinement so the document shows it, and it
// aborts the field's other checks, so the answer says what is wrong first.
import { z } from './zod';

/** Refuses C0, DEL and C1. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** Multi-line fields (bio) keep tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- as above
export const NO_CONTROL_CHARACTERS_EXCEPT_LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

export const controlCharactersMessage = (label: string) => `${label} must not contain control characters`;

export function hasControlCharacters(value: string, options: { multiline?: boolean } = {}): boolean {
  return !(options.multiline ? NO_CONTROL_CHARACTERS_EXCEPT_LINES : NO_CONTROL_CHARACTERS).test(value);
}

/**
 * A string without control characters; `label` names the field in the refusal. `message`, when given, is also the
 * answer to a missing value or one that is not a string (else the contract's error map words those).
 */
export const text = (label: string, options: { multiline?: boolean; message?: string } = {}) =>
  z
    .string(options.message === undefined ? undefined : { message: options.message })
    .regex(options.multiline ? NO_CONTROL_CHARACTERS_EXCEPT_LINES : NO_CONTROL_CHARACTERS, {
      message: controlCharactersMessage(label),
      abort: true,
    });

/** An ISO 8601 date-time with an offset, typed as text first; `message` answers anything else, a missing one too. */
export const isoDateTimeText = (label: string, message: string) =>
  text(label, { message }).pipe(z.iso.datetime({ offset: true, message }));
