import { config } from 'zod/v4/core';
import { FIELD_MESSAGES } from './messages.ts';

/**
 * Every check of the contracts names its own §5 message; one that does not (a wrong type, a non-object body)
 * falls back to the spec's generic 'Incorrect value entered' rather than the validation library's English text,
 * so the server never sends, and the web never shows, a message outside the catalogue. Parses that want the
 * library's wording (the server's environment check) pass their own error map.
 */
config({ customError: () => FIELD_MESSAGES.incorrectValue });
