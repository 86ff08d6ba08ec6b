import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * Import from an SMS mailing system (§1 'SMS-system import'): SMS a business sent through an outside SMS service
 * land in the clients' histories, so an operator sees what the client was sent. They arrive through a channel of
 * type `sms` (one per service account): by uploading the service's export file (CSV or XLSX), or by the service
 * calling the channel's callback address with its key. Idempotent by (channel, the service's message id).
 */

/** The services whose export files and callbacks are read as they are; 'other' maps its columns and posts JSON. */
export const SMS_SERVICES = ['smsru', 'smsc', 'other'] as const;
export type SmsService = (typeof SMS_SERVICES)[number];

export const SMS_IMPORT_LIMITS = {
  /** The largest export file accepted (bytes): a larger one is refused whole with payloadTooLargeException. */
  fileMaxBytes: 40 * 1024 * 1024,
  /** Data rows of one file. */
  rowsMax: 200_000,
  /** An SMS text longer than this is refused for its row (an SMS of 10 parts is 1,530 characters). */
  textMax: 5_000,
  /** Refused rows listed with their line and reason (all of them are counted). */
  refusalsListed: 1_000,
  /** Rows shown before the columns are chosen. */
  sampleRows: 5,
  /** Entries of one callback request. */
  callbackMax: 1_000,
} as const;

/** What a column of the file is: the fields of an imported SMS. Phone and text are needed, the rest optional. */
export const SMS_IMPORT_FIELDS = ['phone', 'text', 'sentAt', 'status', 'messageId'] as const;
export type SmsImportField = (typeof SMS_IMPORT_FIELDS)[number];

const column = z
  .number(M.valueIncorrect)
  .int(M.valueIncorrect)
  .min(0, M.valueIncorrect)
  .max(99, M.valueIncorrect);

/**
 * Which column (0-based) holds each field. Without `sentAt` the SMS are dated at the import; without `status` they
 * are 'sent'; without `messageId` a row is known by its phone, time and text (re-importing the file adds nothing).
 */
export const smsImportMappingSchema = z
  .object({
    phone: column,
    text: column,
    sentAt: column.nullable().default(null),
    status: column.nullable().default(null),
    messageId: column.nullable().default(null),
  })
  .refine(
    (m) => {
      const used = Object.values(m).filter((v) => v !== null);
      return new Set(used).size === used.length;
    },
    { path: ['text'], message: M.valueIncorrect },
  );
export type SmsImportMapping = z.output<typeof smsImportMappingSchema>;

/** The multipart form's text fields beside its `file`: the channel, and the columns when the caller knows them. */
export const smsImportCreateFieldsSchema = z.object({
  channelId: z.uuid(M.requiredFields),
  /** JSON of smsImportMapping; absent: the remembered or recognised columns, else the import waits for them. */
  mapping: z.string().max(1_000, M.valueIncorrect).optional(),
});

export const smsImportStartSchema = z.object({ mapping: smsImportMappingSchema });

/**
 * mapping: waiting for its columns to be chosen; running: rows being imported (progress in processedRows);
 * done: every row imported, found already imported, or refused; failed: the file could not be read to its end
 * (`error`; what was imported before stays, and the summary says how far it got).
 */
export const SMS_IMPORT_STATUSES = ['mapping', 'running', 'done', 'failed'] as const;
export type SmsImportStatus = (typeof SMS_IMPORT_STATUSES)[number];

/** Why a row is not imported. */
export const SMS_IMPORT_REFUSALS = [
  /** No phone, or not one (7 to 15 digits). */
  'phone',
  /** No text. */
  'text',
  /** The text is longer than SMS_IMPORT_LIMITS.textMax. */
  'text_too_long',
  /** The time cannot be read, or is in the future by more than a day. */
  'time',
  /** The message id is longer than 200 characters. */
  'message_id',
] as const;
export type SmsImportRefusal = (typeof SMS_IMPORT_REFUSALS)[number];

const mappingDto = z.object({
  phone: z.number(),
  text: z.number(),
  sentAt: z.number().nullable(),
  status: z.number().nullable(),
  messageId: z.number().nullable(),
});

export const smsImportDto = z.object({
  id: z.string(),
  channel: z.object({ id: z.string(), name: z.string(), service: z.enum(SMS_SERVICES) }),
  author: z.object({ id: z.string(), name: z.string() }).nullable(),
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  /** The CSV's text encoding as read (utf-8, windows-1251, utf-16le); null for XLSX. */
  encoding: z.string().nullable(),
  /** How the columns were known: an export format recognised, the organisation's choice for these headers, or given. */
  detected: z.enum(['smsru', 'smsc', 'remembered', 'given', 'chosen']).nullable(),
  status: z.enum(SMS_IMPORT_STATUSES),
  /** The header row as read, and the first rows under it (to choose the columns). */
  columns: z.array(z.string()),
  sample: z.array(z.array(z.string())),
  /** The columns chosen or recognised; null while the import waits for them. */
  mapping: mappingDto.nullable(),
  /** The columns as guessed from the header (the mapping once there is one): what the column choice starts from. */
  suggested: z.object({
    phone: z.number().nullable(),
    text: z.number().nullable(),
    sentAt: z.number().nullable(),
    status: z.number().nullable(),
    messageId: z.number().nullable(),
  }),
  totalRows: z.number(),
  processedRows: z.number(),
  imported: z.number(),
  /** Rows whose message was already imported (this file again, an earlier export, or the service's callback). */
  duplicates: z.number(),
  refused: z.number(),
  /** The first refused rows: the file's line number and why. */
  refusals: z.array(z.object({ line: z.number(), reason: z.enum(SMS_IMPORT_REFUSALS) })),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type SmsImportDto = z.output<typeof smsImportDto>;

export const smsImportListQuerySchema = z.object({ channelId: z.uuid(M.valueIncorrect).optional() });

/**
 * A callback of an SMS service (`POST /api/sms/{channelId}/callback?key=…`) in our own JSON, for services other
 * than SMS.ru and SMSC.ru (theirs are read as they send them): the SMS sent, or a later status of one.
 */
export const smsCallbackEntrySchema = z.object({
  id: z.string(M.requiredFields).trim().min(1, M.requiredFields).max(255, M.valueIncorrect),
  phone: z.string(M.valueIncorrect).trim().max(32, M.valueIncorrect).optional(),
  text: z.string(M.valueIncorrect).max(SMS_IMPORT_LIMITS.textMax, M.valueIncorrect).optional(),
  sentAt: z.iso.datetime({ offset: true, message: M.valueIncorrect }).optional(),
  status: z.string(M.valueIncorrect).trim().max(100, M.valueIncorrect).optional(),
});
export const smsCallbackSchema = z.union([
  smsCallbackEntrySchema,
  z.object({
    messages: z
      .array(smsCallbackEntrySchema)
      .min(1, M.requiredFields)
      .max(SMS_IMPORT_LIMITS.callbackMax, M.valueIncorrect),
  }),
]);
export type SmsCallbackEntry = z.output<typeof smsCallbackEntrySchema>;

/** What a JSON callback answers: SMS stored, already stored, statuses recorded, statuses of SMS never imported, and refused entries ("on its way" statuses change nothing and are not counted). */
export const smsCallbackDto = z.object({
  imported: z.number(),
  duplicates: z.number(),
  statuses: z.number(),
  unknown: z.number(),
  refused: z.array(z.object({ index: z.number(), reason: z.enum(SMS_IMPORT_REFUSALS) })),
});
export type SmsCallbackDto = z.output<typeof smsCallbackDto>;
