import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { CHANNEL_LIMITS, isHttpUrl } from './channels.ts';

/**
 * Buttons a message may carry (a chat bot's reply): rows of postbacks (`payload` comes back when pressed) and
 * links. The payload limit is Telegram's callback_data (1-64 bytes of UTF-8); channels without buttons show none.
 */
export const BUTTON_LIMITS = {
  /** Characters (code points) of a button's label. */
  textMax: 64,
  /** Bytes of a payload in UTF-8 (Telegram's callback_data). */
  payloadMaxBytes: 64,
  rowsMax: 10,
  perRowMax: 8,
  urlMax: CHANNEL_LIMITS.urlMax,
} as const;

/** Bytes of a string in UTF-8. */
export const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

const label = z
  .string(M.valueIncorrect)
  .refine((v) => v.trim() !== '', M.requiredFields)
  .refine((v) => [...v].length <= BUTTON_LIMITS.textMax, M.valueIncorrect)
  .describe(`Label, 1-${BUTTON_LIMITS.textMax} characters`);

/** A postback button: pressing it sends `payload` back (Telegram callback_data). */
export const postbackButtonSchema = z
  .object({
    text: label,
    payload: z
      .string(M.valueIncorrect)
      .min(1, M.valueIncorrect)
      .refine((v) => utf8Length(v) <= BUTTON_LIMITS.payloadMaxBytes, M.valueIncorrect)
      .describe(`Sent back when pressed, 1-${BUTTON_LIMITS.payloadMaxBytes} bytes of UTF-8`),
  })
  .strict();

/** A link button: opens `url` (http or https only). */
export const linkButtonSchema = z
  .object({
    text: label,
    url: z
      .string(M.valueIncorrect)
      .max(BUTTON_LIMITS.urlMax, M.valueIncorrect)
      .refine(isHttpUrl, M.valueIncorrect)
      .describe('An absolute http: or https: URL'),
  })
  .strict();

export const buttonSchema = z.union([postbackButtonSchema, linkButtonSchema], M.valueIncorrect);
export type Button = z.output<typeof buttonSchema>;

/** Buttons laid out in rows: at most 10 rows of 8, no empty row. */
export const buttonRowsSchema = z
  .array(
    z
      .array(buttonSchema, M.valueIncorrect)
      .min(1, M.valueIncorrect)
      .max(BUTTON_LIMITS.perRowMax, M.valueIncorrect),
    M.valueIncorrect,
  )
  .max(BUTTON_LIMITS.rowsMax, M.valueIncorrect)
  .describe(`Rows of buttons (at most ${BUTTON_LIMITS.rowsMax} rows of ${BUTTON_LIMITS.perRowMax})`);
export type ButtonRows = z.output<typeof buttonRowsSchema>;

/** True for a postback button (else it is a link). */
export const isPostback = (b: Button): b is z.output<typeof postbackButtonSchema> => 'payload' in b;
