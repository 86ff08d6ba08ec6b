import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { isHttpUrl } from './channels.ts';
import { clientProfileDto } from './client-profiles.ts';
import { queryInt } from './common.ts';
import { mailingDto } from './mailings.ts';
import { chatRatingDto } from './ratings.ts';
import { chatDto, messageDto } from './responses.ts';

/**
 * Event webhooks (issue 34): an organisation subscribes URLs of its own to public event types. The vocabulary is
 * ours and stable: it is not the websocket's (realtime.ts), whose names may change with the screens.
 *
 * Every delivery is a POST of a JSON envelope (`WebhookEnvelope`) whose `data` is (WEBHOOK_EVENT_DATA: the schema
 * and a description of each type):
 * - `chat.*`: the chat as the REST API presents it (ChatDto: id, status, channel, client, operator, team…);
 * - `message.created` / `message.status_changed`: the message (MessageDto: id, chatId, direction, text,
 *   attachments, deliveryStatus…);
 * - `client.created` / `client.updated`: the client's profile as `GET /api/clients/{id}` answers it, without its
 *   comments and history (WebhookClientDto: id, name, contacts, tags, fields, status, manager, details, blocked…).
 *   Created: a new contact's first message made the client (any channel), or an SMS import or callback did.
 *   Updated: the profile was edited (`PATCH /api/clients/{id}`), the client blacklisted or taken off it, a site chat
 *   visitor gave their name, e-mail or phone, the client opted out of advertising by a mailing reply, or their
 *   provider sent a new name that renamed the client;
 * - `client.merged`: `{client, mergedIds}`: the client kept, as it is after the merge, and the ids of the clients
 *   merged into it (they are gone: `GET /api/clients/{id}` answers 404 for them);
 * - `rating.created`: a client rated a chat: `{chatId, score, value, requestedAt, ratedAt, sessionNo}`, the rating
 *   as `GET /api/chats/{id}/ratings` lists it, with its chat (the rating takes a score only: there is no comment);
 * - `mailing.finished`: a mailing's run ended, with nobody left to send to (`status` 'finished') or cancelled
 *   ('cancelled'): the mailing as `GET /api/mailings/{id}` answers it (MailingDto: id, name, channel, status,
 *   finishedAt, `stats` with recipients, skipped, sent, delivered, read, failed, replied, optedOut…) at that moment;
 * - `ping`: `{ "message": "test" }`, sent only by "send a test event".
 */
export const WEBHOOK_EVENT_TYPES = [
  'chat.created',
  'chat.assigned',
  'chat.transferred',
  'chat.closed',
  'message.created',
  'message.status_changed',
  'client.created',
  'client.updated',
  'client.merged',
  'rating.created',
  'mailing.finished',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The test event's type: never subscribed to, sent on request to one endpoint. */
export const WEBHOOK_TEST_EVENT = 'ping';

/** `client.created` / `client.updated` data: the profile of `GET /api/clients/{id}` without comments and history. */
export const webhookClientDto = clientProfileDto.omit({ comments: true, history: true });
export type WebhookClientDto = z.output<typeof webhookClientDto>;

/** `client.merged` data: the client kept, after the merge, and the clients merged into it (deleted). */
export const webhookClientMergedDto = z.object({
  client: webhookClientDto,
  mergedIds: z.array(z.uuid()),
});
export type WebhookClientMergedDto = z.output<typeof webhookClientMergedDto>;

/** `rating.created` data: the chat session's rating as `GET /api/chats/{id}/ratings` lists it, with its chat. */
export const webhookRatingDto = z.object({ chatId: z.uuid() }).extend(chatRatingDto.shape);
export type WebhookRatingDto = z.output<typeof webhookRatingDto>;

/** `mailing.finished` data: the mailing as `GET /api/mailings/{id}` answers it, its run ended. */
export const webhookMailingDto = mailingDto.extend({ status: z.enum(['finished', 'cancelled']) });
export type WebhookMailingDto = z.output<typeof webhookMailingDto>;

/** What each public event carries as `data`, and when it is sent (the API reference shows both). */
export const WEBHOOK_EVENT_DATA: Record<WebhookEventType, { description: string; schema: z.ZodType }> = {
  'chat.created': {
    description:
      'A chat began: a client wrote (a new dialog or session), or an operator started one. Data: the chat.',
    schema: chatDto,
  },
  'chat.assigned': { description: 'An operator got the chat. Data: the chat.', schema: chatDto },
  'chat.transferred': {
    description: 'The chat went to another operator or team. Data: the chat.',
    schema: chatDto,
  },
  'chat.closed': { description: 'The chat was closed. Data: the chat.', schema: chatDto },
  'message.created': {
    description: 'A message was written in a chat. Data: the message.',
    schema: messageDto,
  },
  'message.status_changed': {
    description:
      "A message's delivery status changed (sent, delivered, read, undelivered). Data: the message.",
    schema: messageDto,
  },
  'client.created': {
    description:
      "A client was made: a new contact's first message (any channel), or an SMS import or callback. Data: the client's profile without comments and history.",
    schema: webhookClientDto,
  },
  'client.updated': {
    description:
      "A client's profile changed: edited, blacklisted or taken off it, a site chat visitor's name, e-mail or phone, an advertising opt-out, a new name from the provider. Data: the profile without comments and history.",
    schema: webhookClientDto,
  },
  'client.merged': {
    description:
      'Clients were merged into one. Data: {client: the client kept, after the merge; mergedIds: the clients merged into it, now gone}.',
    schema: webhookClientMergedDto,
  },
  'rating.created': {
    description: "A client rated a chat (1..5). Data: the rating, with its chat's id.",
    schema: webhookRatingDto,
  },
  'mailing.finished': {
    description:
      "A mailing's run ended: everyone was sent to (status 'finished') or it was cancelled ('cancelled'). Data: the mailing with its figures then.",
    schema: webhookMailingDto,
  },
};

export const WEBHOOK_LIMITS = {
  /** Endpoints of one organisation. */
  endpointsMax: 20,
  urlMax: 2048,
  descriptionMax: 255,
  /** Automatic retries of a delivery stop this long after it was made; an endpoint failing this long is disabled. */
  retryForMs: 24 * 3_600_000,
  /** The first retry's wait; each next one doubles, up to retryMaxMs. */
  retryFirstMs: 60_000,
  retryMaxMs: 4 * 3_600_000,
  /** A receiver must answer within this long; at most this much of its answer is read (lib/outbound.ts). */
  timeoutMs: 10_000,
  answerMaxBytes: 64 * 1024,
  /** A signature older or newer than this is refused by the documented verification. */
  toleranceSeconds: 300,
  logPageMax: 100,
} as const;

/** The headers of every delivery (HTTP header names are case-insensitive). */
export const WEBHOOK_HEADERS = {
  /** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the endpoint's secret>`. */
  signature: 'SmartConnect-Signature',
  eventId: 'SmartConnect-Event-Id',
  eventType: 'SmartConnect-Event-Type',
  deliveryId: 'SmartConnect-Delivery-Id',
} as const;

/** The body of every delivery. `id` is the same for every attempt and redelivery of one event: dedupe by it. */
export type WebhookEnvelope<T = unknown> = {
  id: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  createdAt: string;
  organisationId: string;
  data: T;
};

const url = z
  .string(M.valueIncorrect)
  .trim()
  .min(1, M.valueIncorrect)
  .max(WEBHOOK_LIMITS.urlMax, M.valueIncorrect)
  .refine(isHttpUrl, M.valueIncorrect);
const description = z
  .string(M.descriptionIncorrect)
  .trim()
  .max(WEBHOOK_LIMITS.descriptionMax, M.descriptionIncorrect);
const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, M.valueIncorrect), M.valueIncorrect)
  .min(1, M.valueIncorrect)
  .max(WEBHOOK_EVENT_TYPES.length, M.valueIncorrect)
  .transform((list) => [...new Set(list)]);

export const webhookEndpointCreateSchema = z.object({
  url,
  description: description.default(''),
  eventTypes,
});
export type WebhookEndpointCreate = z.input<typeof webhookEndpointCreateSchema>;

export const webhookEndpointUpdateSchema = z.object({
  url: url.optional(),
  description: description.optional(),
  eventTypes: eventTypes.optional(),
  /** Turning an endpoint on again clears its failure record. */
  enabled: z.boolean(M.valueIncorrect).optional(),
});
export type WebhookEndpointUpdate = z.input<typeof webhookEndpointUpdateSchema>;

export const webhookDeliveriesQuerySchema = z.object({
  limit: queryInt(1, WEBHOOK_LIMITS.logPageMax, 20),
  offset: queryInt(0, 1_000_000, 0),
});

const at = z.iso.datetime({ offset: true });

export const WEBHOOK_DISABLED_REASONS = ['failing', 'manual'] as const;

export const webhookEndpointDto = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  disabledReason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  disabledAt: at.nullable(),
  /** The first failed attempt since the last success; null while it works. */
  failingSince: at.nullable(),
  createdAt: at,
});
export type WebhookEndpointDto = z.output<typeof webhookEndpointDto>;

/** At creation and after a rotation only: the signing secret, shown once. */
export const webhookEndpointSecretDto = webhookEndpointDto.extend({ secret: z.string() });
export type WebhookEndpointSecretDto = z.output<typeof webhookEndpointSecretDto>;

/**
 * Why an attempt did not deliver: `http_status` (an answer other than 2xx), `redirect` (a 3xx: never followed),
 * `timeout` (no full answer in time), `address_refused` (a local or private address), `network` (no connection).
 * `answer_truncated` on a delivered attempt: the answer was longer than answerMaxBytes and was not read further.
 */
export const WEBHOOK_ATTEMPT_ERRORS = [
  'http_status',
  'redirect',
  'timeout',
  'address_refused',
  'network',
  'answer_truncated',
] as const;
export type WebhookAttemptError = (typeof WEBHOOK_ATTEMPT_ERRORS)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const webhookDeliveryDto = z.object({
  id: z.uuid(),
  endpointId: z.uuid(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: at.nullable(),
  lastAttemptAt: at.nullable(),
  /** The receiver's HTTP status of the last attempt; null when it did not answer. */
  lastStatusCode: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  lastError: z.enum(WEBHOOK_ATTEMPT_ERRORS).nullable(),
  deliveredAt: at.nullable(),
  createdAt: at,
  /** The exact body sent (the signed bytes). */
  body: z.string(),
});
export type WebhookDeliveryDto = z.output<typeof webhookDeliveryDto>;

export const webhookDeliveryParams = z.object({
  id: z.uuid('Not found'),
  deliveryId: z.uuid('Not found'),
});
