import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { attachmentSchema, CHANNEL_TYPES, MESSAGE_TEXT_MAX } from './channels.ts';
import { reportPeriodDto } from './reports.ts';
import { PROVIDER_TEMPLATE_LIMITS } from './templates.ts';

/**
 * Mailings (§1 mailings and replies to mailings; §3 message kind 'mailing', routing rules' message and marketing
 * types): one message sent to an audience of a channel's contacts, throttled to the provider's rate, each copy kept
 * in the client's history as a 'mailing' message.
 */
export const MAILING_LIMITS = {
  nameMax: 100,
  textMax: MESSAGE_TEXT_MAX,
  /** An uploaded list of phones or provider ids (the audience's `list`). */
  listMax: 100_000,
  listEntryMax: 100,
  tagsMax: 50,
  idsMax: 200,
  /** Words a client answers to stop advertising (the organisation's own; the defaults below when none). */
  optOutWordsMax: 20,
  ratePerSecondMax: 1_000,
} as const;

export const MAILING_MARKETING_TYPES = ['service', 'advertising'] as const;
export type MailingMarketingType = (typeof MAILING_MARKETING_TYPES)[number];

/**
 * draft: being written; scheduled: starts at `scheduledAt`; sending: recipients being sent to (outside the send
 * window it waits, still 'sending'); paused: by its author or because its channel stopped (pauseReason);
 * finished: every recipient sent to or skipped; cancelled: stopped by its author, the rest never sent.
 */
export const MAILING_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'finished', 'cancelled'] as const;
export type MailingStatus = (typeof MAILING_STATUSES)[number];
export const MAILING_PAUSE_REASONS = ['author', 'channel_inactive'] as const;
export type MailingPauseReason = (typeof MAILING_PAUSE_REASONS)[number];

/** Why a recipient of the audience is not sent to. */
export const MAILING_SKIP_REASONS = [
  /** The client is in the blacklist. */
  'blacklisted',
  /** The client is marked spam. */
  'spam',
  /** An advertising mailing, and the client opted out of advertising. */
  'opted_out',
  /** The contact unsubscribed at the provider (Viber, WhatsApp): nothing can be sent. */
  'unsubscribed',
  /** WhatsApp: free text outside the 24-hour window (a template is needed). */
  'session_closed',
] as const;
export type MailingSkipReason = (typeof MAILING_SKIP_REASONS)[number];

/** Opt-out words recognised when the organisation sets none: a reply that is one of them, ignoring case and punctuation. */
export const DEFAULT_OPT_OUT_WORDS = ['STOP', 'UNSUBSCRIBE', 'СТОП', 'Отписаться', 'Отписка'] as const;

/**
 * The organisation's mailing settings (`PUT /api/mailing-settings`): the words that, answered alone to a mailing,
 * opt the client out of advertising; null goes back to DEFAULT_OPT_OUT_WORDS.
 */
export const mailingSettingsSchema = z.object({
  optOutWords: z
    .array(
      z.string(M.valueIncorrect).trim().min(1, M.valueIncorrect).max(50, M.valueIncorrect),
      M.valueIncorrect,
    )
    .min(1, M.requiredFields)
    .max(MAILING_LIMITS.optOutWordsMax, M.valueIncorrect)
    .nullable(),
});
export const mailingSettingsDto = z.object({
  /** The words in force (the defaults when the organisation set none). */
  optOutWords: z.array(z.string()),
  /** The organisation chose its own words. */
  custom: z.boolean(),
});
export type MailingSettingsDto = z.output<typeof mailingSettingsDto>;

/** `GET /api/mailing-templates?channelId=`: the templates a mailing of that channel may send. */
export const mailingTemplatesQuerySchema = z.object({ channelId: z.uuid(M.valueIncorrect) });

const hhmm = z.string(M.timeIncorrect).regex(/^([01]\d|2[0-3]):[0-5]\d$/, M.timeIncorrect);

/** Who receives the mailing: the channel's contacts whose clients match every filter given (none: all of them). */
export const mailingAudienceSchema = z.object({
  /** The clients' statuses (§3 Customer status), any of them. */
  statusIds: z.array(z.uuid(M.valueIncorrect)).max(MAILING_LIMITS.idsMax, M.valueIncorrect).optional(),
  /** Any of these tags. */
  tags: z
    .array(z.string().trim().min(1, M.valueIncorrect).max(64, M.valueIncorrect))
    .max(MAILING_LIMITS.tagsMax, M.valueIncorrect)
    .optional(),
  companyIds: z.array(z.uuid(M.valueIncorrect)).max(MAILING_LIMITS.idsMax, M.valueIncorrect).optional(),
  /** Clients whose personal manager is one of these users. */
  managerIds: z.array(z.uuid(M.valueIncorrect)).max(MAILING_LIMITS.idsMax, M.valueIncorrect).optional(),
  /** The client's last message on any channel before / after this moment (never written: not "after"). */
  lastContactBefore: z.iso.datetime({ offset: true, message: M.valueIncorrect }).optional(),
  lastContactAfter: z.iso.datetime({ offset: true, message: M.valueIncorrect }).optional(),
  /**
   * An uploaded list: phones (any formatting; compared by their digits) or the provider's ids of the channel's
   * contacts. Entries matching no contact of the channel are counted as not found.
   */
  list: z
    .array(z.string().trim().min(1, M.valueIncorrect).max(MAILING_LIMITS.listEntryMax, M.valueIncorrect))
    .max(MAILING_LIMITS.listMax, M.valueIncorrect)
    .optional(),
});
export type MailingAudience = z.infer<typeof mailingAudienceSchema>;

export const mailingTemplateSchema = z.object({
  name: z.string().trim().min(1, M.valueIncorrect).max(512, M.valueIncorrect),
  languageCode: z.string().trim().min(1, M.valueIncorrect).max(16, M.valueIncorrect),
  variables: z
    .array(z.string().max(PROVIDER_TEMPLATE_LIMITS.variableMax, M.valueIncorrect))
    .max(PROVIDER_TEMPLATE_LIMITS.variablesMax, M.valueIncorrect)
    .default([]),
});

const mailingFields = {
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(MAILING_LIMITS.nameMax, M.nameTooLong),
  channelId: z.uuid(M.valueIncorrect),
  marketingType: z.enum(MAILING_MARKETING_TYPES, M.valueIncorrect),
  /** The text, with the template variables {client_name}, {channel}, {date} filled per recipient. */
  text: z.string(M.valueIncorrect).max(MAILING_LIMITS.textMax, M.valueIncorrect).default(''),
  attachments: z.array(attachmentSchema, M.valueIncorrect).max(10, M.valueIncorrect).default([]),
  /** A WhatsApp template (registered at the provider): what may be sent outside the 24-hour window. */
  template: mailingTemplateSchema.nullable().default(null),
  audience: mailingAudienceSchema.default({}),
  /** When to start (the organisation's time zone decides nothing here: an instant); null: when started. */
  scheduledAt: z.iso.datetime({ offset: true, message: M.timeIncorrect }).nullable().default(null),
  /** Sending pauses outside this local time of day (the organisation's time zone); null: any time. */
  sendWindow: z
    .object({ from: hhmm, to: hhmm })
    .refine((w) => w.from !== w.to, { message: M.timeSetIncorrectly, path: ['to'] })
    .nullable()
    .default(null),
  /** At most this many messages a second (never above the channel type's documented limit); null: that limit. */
  ratePerSecond: z
    .number(M.quantityIncorrect)
    .int(M.quantityIncorrect)
    .min(1, M.quantityIncorrect)
    .max(MAILING_LIMITS.ratePerSecondMax, M.quantityIncorrect)
    .nullable()
    .default(null),
};

const hasMessage = (v: { text?: string; attachments?: unknown[]; template?: unknown }) =>
  (v.text ?? '').trim() !== '' || (v.attachments?.length ?? 0) > 0 || v.template != null;

export const mailingCreateSchema = z
  .object(mailingFields)
  .refine(hasMessage, { message: M.requiredFields, path: ['text'] });
export type MailingCreate = z.infer<typeof mailingCreateSchema>;
/** A draft or scheduled mailing's changes (a started one changes only by pause, resume and cancel). */
export const mailingUpdateSchema = z.object({
  name: mailingFields.name.optional(),
  channelId: mailingFields.channelId.optional(),
  marketingType: mailingFields.marketingType.optional(),
  text: z.string(M.valueIncorrect).max(MAILING_LIMITS.textMax, M.valueIncorrect).optional(),
  attachments: z.array(attachmentSchema, M.valueIncorrect).max(10, M.valueIncorrect).optional(),
  template: mailingTemplateSchema.nullable().optional(),
  audience: mailingAudienceSchema.optional(),
  scheduledAt: z.iso.datetime({ offset: true, message: M.timeIncorrect }).nullable().optional(),
  sendWindow: z.object({ from: hhmm, to: hhmm }).nullable().optional(),
  ratePerSecond: mailingFields.ratePerSecond.optional(),
});
export type MailingUpdate = z.infer<typeof mailingUpdateSchema>;

/** The live count before sending: who the audience holds now, and who of them would be skipped and why. */
export const mailingAudienceCountSchema = z.object({
  channelId: z.uuid(M.valueIncorrect),
  marketingType: z.enum(MAILING_MARKETING_TYPES, M.valueIncorrect).default('service'),
  audience: mailingAudienceSchema.default({}),
  /** Sends a template (WhatsApp outside the window). */
  template: z.boolean().default(false),
});
export const mailingAudienceCountDto = z.object({
  /** Contacts matching the audience. */
  total: z.number().int(),
  /** Of them, those who would be sent to. */
  eligible: z.number().int(),
  skipped: z.record(z.enum(MAILING_SKIP_REASONS), z.number().int()),
  /** Entries of an uploaded list that match no contact of the channel. */
  notFound: z.number().int(),
});
export type MailingAudienceCountDto = z.infer<typeof mailingAudienceCountDto>;

export const mailingStatsDto = z.object({
  recipients: z.number().int(),
  /** Not yet sent (waiting for their turn, the send window or a resume). */
  pending: z.number().int(),
  skipped: z.number().int(),
  skippedBy: z.record(z.enum(MAILING_SKIP_REASONS), z.number().int()),
  /** Handed to the provider (Sent, Delivered or Read). */
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  /** The providers' reasons of the failures, most frequent first. */
  errors: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  replied: z.number().int(),
  optedOut: z.number().int(),
});
export type MailingStatsDto = z.infer<typeof mailingStatsDto>;

const ref = z.object({ id: z.uuid(), name: z.string() });
const at = z.iso.datetime({ offset: true });

export const mailingDto = z.object({
  id: z.uuid(),
  name: z.string(),
  channel: ref.extend({ type: z.enum(CHANNEL_TYPES) }),
  marketingType: z.enum(MAILING_MARKETING_TYPES),
  text: z.string(),
  attachments: z.array(attachmentSchema),
  template: mailingTemplateSchema.nullable(),
  audience: mailingAudienceSchema,
  scheduledAt: at.nullable(),
  sendWindow: z.object({ from: z.string(), to: z.string() }).nullable(),
  ratePerSecond: z.number().int().nullable(),
  /** The rate the sender keeps: ratePerSecond, else the channel type's documented limit (null: none). */
  effectiveRate: z.number().nullable(),
  status: z.enum(MAILING_STATUSES),
  pauseReason: z.enum(MAILING_PAUSE_REASONS).nullable(),
  /** Sending, but outside the send window now: it goes on at the window's start. */
  waitingForWindow: z.boolean(),
  /**
   * Sending, but the channel's daily limit of different recipients is reached (WhatsApp's messaging limit tier, or
   * MAILING_DAILY_LIMITS): it goes on at this moment, when the earliest of those sends is 24 hours old.
   */
  waitingForLimitUntil: at.nullable(),
  author: ref.nullable(),
  createdAt: at,
  startedAt: at.nullable(),
  finishedAt: at.nullable(),
  stats: mailingStatsDto,
});
export type MailingDto = z.infer<typeof mailingDto>;

export const mailingListQuerySchema = z.object({
  status: z.enum(MAILING_STATUSES, M.valueIncorrect).optional(),
});

/** A mailing's recipients as a file: one row each, with its state, delivery status and reasons. */
export const mailingExportQuerySchema = z.object({
  format: z.enum(['csv', 'xlsx'], M.valueIncorrect).default('csv'),
});

/** The figures of the Reports' mailings tab: the stats without their breakdowns. */
export const mailingFiguresDto = mailingStatsDto.omit({ skippedBy: true, errors: true });
export type MailingFiguresDto = z.infer<typeof mailingFiguresDto>;

/** Reports -> Mailings: every mailing started in the period, with its figures now, and their totals. */
export const mailingsReportDto = z.object({
  period: reportPeriodDto,
  rows: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      channel: ref.extend({ type: z.enum(CHANNEL_TYPES) }),
      marketingType: z.enum(MAILING_MARKETING_TYPES),
      status: z.enum(MAILING_STATUSES),
      startedAt: at,
      figures: mailingFiguresDto,
    }),
  ),
  totals: mailingFiguresDto,
});
export type MailingsReport = z.infer<typeof mailingsReportDto>;
