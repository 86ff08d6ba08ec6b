import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

export const idParams = z.object({ id: z.uuid('Not found') });
/**
 * A yes/no query value as browsers and tools write it: true/1/yes/on or false/0/no/off, any case; empty or absent
 * is "not said" (undefined). Anything else is refused.
 */
export const queryFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => /^(|true|1|yes|on|false|0|no|off)$/.test(v), 'Incorrect value entered')
  .transform((v) => (v === '' ? undefined : /^(true|1|yes|on)$/.test(v)))
  .optional();
/** A whole number from a query string (limit, offset), with the spec's message when it is not one. */
export const queryInt = (min: number, max: number, fallback: number) =>
  z.coerce
    .number(M.incorrectValue)
    .int(M.incorrectValue)
    .min(min, M.incorrectValue)
    .max(max, M.incorrectValue)
    .default(fallback);
export type Page<T> = { items: T[]; total: number };
