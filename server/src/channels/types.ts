import type { Readable } from 'node:stream';
import type { Attachment, ButtonRows, ChannelType, WhatsAppTemplateDto } from '@smartconnect/contracts';
import type { z } from 'zod';
import type { Queryable } from '../db/index.ts';
import type { Outbound } from '../lib/outbound.ts';

/** A customer message as every adapter hands it to ingest, whatever the provider's shape. */
export type InboundMessage = {
  externalMessageId: string;
  /** `username`: the client's handle at the provider (a Telegram @username), kept on their contact. */
  client: {
    externalId: string;
    name: string;
    username?: string;
    /**
     * `name` is a stand-in (the provider's update carries none, e.g. VK's `id123`): the adapter's `clientNames`
     * is asked for the real one before ingest.
     */
    nameUnknown?: boolean;
  };
  text: string;
  attachments: Attachment[];
  /** Files the provider keeps (its links expire): fetched through the adapter into our storage before ingest. */
  media?: MediaRef[];
  /** Files that came with the message itself (an e-mail's attachments): put into our storage before ingest. */
  files?: Media[];
  /** The payload of our button the client pressed (a postback), kept on the message for the bot runtime. */
  payload?: string;
  /**
   * What the conversation is about at a marketplace (the Avito listing, the Ozon posting, the Yandex Market order):
   * kept on the chat and shown in its top bar and the client panel, with a link to it where the provider has one.
   */
  topic?: ChatTopic;
};

/** The item or order a marketplace conversation is about. */
export type ChatTopic = { kind: 'listing' | 'order'; id: string; title: string; url: string | null };

/** A provider's file, as its adapter can fetch it. */
export type MediaRef = { ref: string; name?: string; contentType?: string; size?: number };

/** A file's bytes in hand (an e-mail's attachment, one of our stored files). */
export type Media = { data: Buffer; contentType: string; name?: string };

/**
 * A provider file being downloaded: its bytes as they arrive, never held whole. Ingest streams them into our storage
 * under the type's limit (`mediaMaxBytes`), checks their type by content and destroys the stream when it stops
 * early. `contentType` is what the provider says; `size` its Content-Length (or the size it announced), when known.
 */
export type MediaDownload = { stream: Readable; contentType: string; name?: string; size?: number };

/**
 * What one provider request says, in our words. Adapters answer a list: one webhook may carry several updates,
 * or none we act on (a group post is not a customer dialog).
 */
export type InboundEvent =
  | { kind: 'message'; message: InboundMessage }
  /** The client changed a message we stored. */
  | { kind: 'edit'; message: InboundMessage }
  /** The provider reports on one of our messages: by our id, or by the id the provider gave it when sent. */
  | {
      kind: 'status';
      messageId?: string;
      externalId?: string;
      status: 'delivered' | 'read' | 'undelivered';
      reason?: string;
      /**
       * The report covers every earlier message of ours in the same chat as well ("read up to this one":
       * Instagram's seen mark names the last message seen).
       */
      upTo?: boolean;
      /**
       * Instead of a message: every message of ours to this client through this channel sent at or before `at`
       * (epoch ms, the provider's clock), as Messenger's delivery and read watermarks say.
       */
      watermark?: { clientExternalId: string; at: number };
    }
  /**
   * The client pressed one of our buttons: `data` is the button's payload (for the bot runtime), the message's
   * text what the client saw (the button's label when the provider tells it); `ackRef` names the press for
   * providers that want it answered.
   */
  | { kind: 'postback'; message: InboundMessage; data: string; ackRef?: string }
  /** The client blocked us or unsubscribed. */
  | { kind: 'opt_out'; client: { externalId: string } }
  /**
   * The client's address at the provider changed (WhatsApp: a new phone number): their contact follows it, so the
   * next messages from the new address land in the same client and replies go there.
   */
  | { kind: 'moved'; client: { externalId: string }; newExternalId: string }
  /**
   * The client is writing (`active`) or stopped: who sees their open chat is told, as the site widget's visitor's
   * typing is (a signal, nothing stored). Apple Messages for Business sends typing_start / typing_end.
   */
  | { kind: 'typing'; client: { externalId: string }; active: boolean };

/**
 * What an adapter's parse answers: the request's events, and a part it could not read that names no client to tell
 * (a delivery report of the wrong shape, an update without a sender). The webhook is still answered 2xx (providers
 * retry anything else forever); receive.ts logs it and records it on the channel for the admin
 * (ChannelDto.lastUnreadable). A part that names its client is a message with a visible notice instead
 * (unreadable.ts).
 */
export type ParsedEvent =
  | InboundEvent
  | { kind: 'unreadable'; reason: string }
  /**
   * An update the provider sends that we do not act on (an event type we do not know, or know and leave): answered
   * 2xx and stored nowhere; logged once per type and instance, so a new kind of event shows in the log.
   */
  | { kind: 'ignored'; what: string };

/** A provider request exactly as it arrived: signatures are computed over the raw bytes. */
export type RawRequest = {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  rawBody: Buffer;
  /** The body parsed as JSON when it is JSON, else undefined. */
  body: unknown;
  /** Which of the channel's endpoints was called, for channels with more than one (the API channel's `status`). */
  endpoint?: string;
};

/** The channel as adapters see it: its settings and decrypted secrets, never the row. */
export type AdapterChannel = {
  id: string;
  organisationId: string;
  /** SHA-256 of a key presented on inbound requests (the API channel's inbound key), when the type has one. */
  inboundKeyHash: string | null;
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
};

/** One of our messages as the outbox asks an adapter to deliver it; the adapter renders the provider's call. */
export type OutboundMessage = {
  /** The outbox row: an idempotency id for providers that take one. */
  deliveryId: string;
  event: 'message.created' | 'message.updated';
  id: string;
  chatId: string;
  client: { externalId: string };
  text: string;
  attachments: Attachment[];
  /**
   * Rows of buttons under the message (empty when none), valid by contracts' buttonRowsSchema. An adapter whose
   * `capabilities.buttons` is false may leave them out.
   */
  buttons: ButtonRows;
  createdAt: string;
  editedAt: string | null;
  /** The provider's id of this message when it was first sent (edits need it). */
  externalId: string | null;
  /** Sent by automation (a bot, a rule, an automatic reply), not by a person: e-mail marks it Auto-Submitted. */
  automatic?: boolean;
  /**
   * Send as this template registered at the provider (types with `capabilities.templates`): its name, language
   * code and the values of its body's variables, in order; `text` is the filled-in body as the chat shows it.
   */
  template?: { name: string; languageCode: string; variables: string[] };
};

export type SendResult =
  | { ok: true; externalId?: string }
  | {
      ok: false;
      retryable: boolean;
      error: string;
      /** The provider asked us to wait this long before the next attempt. */
      retryAfterMs?: number;
      /** The provider refused the channel's credentials (a channel problem, not the message's). */
      tokenRefused?: boolean;
    };

/**
 * What an adapter may use of the server: the guarded client for every request outside, our public address, the
 * environment (its own variables, e.g. a provider base URL) and our stored files (to upload an attachment).
 */
export type AdapterContext = {
  outbound: Outbound;
  publicUrl: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The bytes of one of the organisation's attachments (an `/api/files/{key}` URL); null for a URL elsewhere. */
  readFile(organisationId: string, url: string): Promise<Media | null>;
  /** The database, for adapters that keep provider state of their own (the e-mail channel's headers). */
  db: Queryable;
};

/** What an inbound event became once acted on: the stored message (null for events that store none). */
export type ReceivedEvent = { messageId: string; chatId: string; duplicate: boolean } | null;

/**
 * One session of a pull channel (jobs/polls.ts): the stored cursor, how to save it (false once the claim is
 * lost), how to hand events to ingest (answered once each is committed), and the signal that ends the session.
 */
export type PollSession = {
  cursor: Record<string, unknown>;
  saveCursor(cursor: Record<string, unknown>): Promise<boolean>;
  /**
   * Acts on what was read as on a webhook's events (unreadable and ignored ones set aside); answers what each other
   * event became, in order.
   */
  receive(events: ParsedEvent[]): Promise<ReceivedEvent[]>;
  signal: AbortSignal;
  /**
   * The provider refused the channel's credentials, or did not answer: the channel's problem (§8), shown to its
   * administrators ('unreachable' only once it lasts).
   */
  problem(kind: 'token_refused' | 'unreachable', detail: string): Promise<void>;
  /** The provider answered: a problem of its credentials or of reaching it ends. */
  working(): Promise<void>;
};

export type ChannelCapabilities = {
  /** Sent messages can be edited at the provider. */
  edit: boolean;
  /** The type shows a message's buttons (OutboundMessage.buttons: postbacks and links), e.g. Telegram's inline keyboard. */
  buttons: boolean;
  /**
   * The most buttons the type shows under one message, one per row, when fewer than BUTTON_LIMITS.rowsMax (10): a bot
   * node with more is sent as numbered text instead (§9 'or the channel's own limit'). VK's inline keyboard: 6 rows.
   */
  buttonsMax?: number;
  /** Only registered templates outside a session window. */
  templates: boolean;
  /** Hours after the client's last message during which free text may be sent (WhatsApp: 24); null: always. */
  sessionWindowHours: number | null;
  /** Longest text of one provider message; longer texts are split by the adapter. */
  textLimit: number;
  attachments: { kinds: readonly ('image' | 'document' | 'audio' | 'video')[]; maxBytes: number };
  /**
   * An operator may start a dialog with a known client of the channel (the create-chat page): the provider lets us
   * write first to someone who wrote to us before. Absent: false.
   */
  startDialog?: boolean;
  /**
   * The channel is our own visitor widget (modules/widget): we issue its clients' identities (so a signed-in user can
   * be one: the platform's support chat is such a channel), a visitor sees our messages live on the widget's socket,
   * and is asked for a rating with the widget's buttons instead of a message with a link. Absent: false.
   */
  visitorWidget?: boolean;
};

/** What `connect` answers: settings and secrets to store, and values to show once (keys we generated). */
export type Connected = {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  shownOnce?: Record<string, string>;
  /** A hash of a key the provider (or integrator) presents on every inbound request, looked up by the channel. */
  inboundKeyHash?: string;
};

/**
 * One provider behind one interface (ARCHITECTURE.md "Channel plugins"): the rest of the server never switches on
 * type. `input` of connect is the create body's type-specific fields, validated by `createSchema`.
 */
export type ChannelAdapter = {
  type: ChannelType;
  /** The type's own fields of the create/update body (secrets among them are write-only). */
  createSchema: z.ZodType<Record<string, unknown>>;
  updateSchema: z.ZodType<Record<string, unknown>>;
  /** What every channel of the type can do (`capabilitiesOf` may narrow it for one channel). */
  capabilities: ChannelCapabilities;
  /**
   * What one channel can do when it depends on its settings (a WhatsApp channel of a business solution provider
   * has no templates); absent: the type's `capabilities`. Read through the registry's `channelCapabilities`.
   */
  capabilitiesOf?(settings: Record<string, unknown>): ChannelCapabilities;
  /** Checks the credentials with the provider and registers our webhook; throws a field AppError when refused. */
  connect(
    ctx: AdapterContext,
    /** The channel's id (new when creating) and its organisation (to read the organisation's files). */
    channel: { id: string; organisationId: string },
    input: Record<string, unknown>,
    current?: AdapterChannel,
  ): Promise<Connected>;
  /**
   * Registers our webhook once the channel is stored and active, for providers that call the webhook while
   * registering it (Viber's set_webhook sends a 'webhook' event first); throws a field AppError when refused.
   */
  register?(ctx: AdapterContext, channel: AdapterChannel): Promise<void>;
  /** Unregisters our webhook at the provider (the channel is deactivated or deleted). */
  disconnect(ctx: AdapterContext, channel: AdapterChannel): Promise<void>;
  /**
   * The channel is gone for good (deleted, or its creation failed after connect): removes what `connect` set up at
   * the provider and a deactivation keeps (VK: the Callback API server we added). Throws when refused; the caller
   * logs it and deletes anyway.
   */
  remove?(ctx: AdapterContext, channel: AdapterChannel): Promise<void>;
  /**
   * The channel was connected again (edited with new credentials, logged in again) and stored: removes what the
   * earlier connect set up at the provider and the new one replaced (VK: the previous Callback API server). Throws
   * when refused; the caller logs it.
   */
  replaced?(ctx: AdapterContext, before: AdapterChannel, after: AdapterChannel): Promise<void>;
  /** True when the request really comes from this channel's provider. */
  verify(channel: AdapterChannel, req: RawRequest): boolean;
  /**
   * The provider's verification GET of our webhook URL, where it has one (e.g. Meta's `hub.challenge`): the text
   * to answer, or null when the request does not prove it comes from the provider (403). Types without one: 404.
   */
  challenge?(channel: AdapterChannel, req: RawRequest): string | null;
  /**
   * The request as events, its provider payload checked with a schema and its strings made storable
   * (sanitizeStrings). What a provider's webhook carries that cannot be read is never thrown (a non-2xx answer is
   * retried forever): a notice in the client's dialog, or an `unreadable` event. Throws a validation AppError only
   * where the sender reads our 4xx as final (the API channel's integrators).
   */
  parse(channel: AdapterChannel, req: RawRequest): ParsedEvent[];
  /** Delivers one of our messages; says whether a failure is worth retrying. */
  send(ctx: AdapterContext, channel: AdapterChannel, message: OutboundMessage): Promise<SendResult>;
  /**
   * The body to answer the provider's request with instead of ours, where the provider reads it (Viber: the
   * welcome message answering conversation_started; a string is answered as plain text, e.g. VK's `ok`); null for
   * our usual answer.
   */
  answer?(channel: AdapterChannel, req: RawRequest): Record<string, unknown> | string | null;
  /**
   * An operator is writing a reply in the client's open chat (the web app says so at most every 3 s while they type):
   * the provider shows the client, where it can. Best effort: a failure is logged, never retried.
   */
  typing?(ctx: AdapterContext, channel: AdapterChannel, client: { externalId: string }): Promise<void>;
  /** After the request's events are committed (best effort): e.g. telling the provider a button press was seen. */
  afterReceive?(ctx: AdapterContext, channel: AdapterChannel, events: InboundEvent[]): Promise<void>;
  /**
   * The names of clients whose updates carry none (messages with `client.nameUnknown`), by their external ids: those
   * the provider tells (VK users.get, Meta's user profile). Answers what it found; throws when the provider is out
   * of reach (the stand-in names are kept; the caller caches answers).
   */
  clientNames?(
    ctx: AdapterContext,
    channel: AdapterChannel,
    externalIds: string[],
  ): Promise<Record<string, string>>;
  /**
   * What the provider's update lacks and the provider tells when asked (a marketplace chat's listing or order: the
   * message's `topic`), added after parse and the client names, before ingest. Answers the events (new objects where
   * changed). Throws when the provider cannot be asked: the caller logs it and goes on with the events as they are.
   */
  enrich?(ctx: AdapterContext, channel: AdapterChannel, events: InboundEvent[]): Promise<InboundEvent[]>;
  /** A provider file named by a MediaRef, as a stream; throws a MediaError when it cannot be had. */
  fetchMedia?(ctx: AdapterContext, channel: AdapterChannel, ref: MediaRef): Promise<MediaDownload>;
  /**
   * The largest file the provider lets us download (its documented inbound limit), when it differs from
   * `capabilities.attachments.maxBytes` (what we may send): Telegram's bots download at most 20 MB. A larger file
   * becomes a notice in the message's text.
   */
  mediaMaxBytes?: number;
  /**
   * The most different clients the provider lets this channel start conversations with in a rolling 24 hours
   * (WhatsApp's messaging limit tier), read from the provider; null when it sets none. Throws when it cannot be read.
   */
  dailyRecipientLimit?(ctx: AdapterContext, channel: AdapterChannel): Promise<number | null>;
  /** The settings shown in the API (never secrets). */
  present(settings: Record<string, unknown>): Record<string, unknown>;
  /** Where the provider posts, when not the common `/api/webhooks/{type}/{channelId}`. */
  inboundPath?(channelId: string): string;
  /**
   * A pull provider (IMAP): reads what is new since the session's cursor and hands it to `receive`, saving the
   * cursor as it goes; may wait for more (IDLE) until the session's signal ends it. Scheduled by the job runner,
   * one session per channel at a time across instances. Answers when to poll again (ms; 0 for at once).
   */
  poll?(ctx: AdapterContext, channel: AdapterChannel, session: PollSession): Promise<{ againInMs: number }>;
  /**
   * Connecting by logging in with the provider (OAuth 2 code flow): the dialog to send the admin to, the callback's
   * query made a (long-lived) user token (throws OAuthRefusedError when the login or the exchange is refused), and
   * the accounts that token may connect. `connect` then gets `{grant: <that token>, grantExpiresAt, pageId}`
   * (grantExpiresAt: when the token expires, an ISO time, absent when it does not).
   */
  oauth?: {
    /** `accountId`: a second authorisation for that account's own token (VK: a community token), when supported. */
    authorizeUrl(ctx: AdapterContext, p: { redirectUri: string; state: string; accountId?: string }): string;
    exchange(
      ctx: AdapterContext,
      p: { query: Record<string, unknown>; redirectUri: string; accountId?: string },
    ): Promise<{ token: string; expiresInSeconds: number | null }>;
    /** Whether `authorizeUrl` takes an `accountId` (a second authorisation; `connect` then gets `grantAccountId`). */
    accountAuthorization?: boolean;
    /**
     * The accounts the token may connect; `accountId`: the token is a second authorisation's (`accountAuthorization`)
     * for that account, answered as that one account (its name shown before saving).
     */
    accounts(ctx: AdapterContext, token: string, accountId?: string): Promise<OauthAccount[]>;
  };
  /**
   * Renews the channel's provider token when it expires within a while of `now` (the job runner asks about every
   * active channel of the type now and then): the settings and secrets to store, or null when nothing is due.
   * Throws TokenRefusedError when the provider refuses (the channel keeps its token; asked again later), anything
   * else when it cannot be reached.
   */
  refresh?(
    ctx: AdapterContext,
    channel: AdapterChannel,
    now: Date,
  ): Promise<{ settings: Record<string, unknown>; secrets: Record<string, string> } | null>;
  /** The templates registered at the provider (types with `capabilities.templates`); throws when unreadable. */
  listTemplates?(ctx: AdapterContext, channel: AdapterChannel): Promise<ProviderTemplate[]>;
};

/**
 * A template registered at the provider (§3 WhatsApp template), as the read-only list shows it; `name` and
 * `languageCode` are the provider's, for sending it.
 */
export type ProviderTemplate = Omit<WhatsAppTemplateDto, 'channelId'>;

/** An account a provider login may connect (a Facebook page, with its Instagram business account). */
export type OauthAccount = { id: string; name: string; username: string | null };

/** The provider refused the login (the admin declined, or the code exchange failed). */
export class OAuthRefusedError extends Error {}

/** The provider refused to renew the channel's token (revoked, expired, the account no longer managed). */
export class TokenRefusedError extends Error {}

/** A provider file that cannot be fetched: `retryable` when the provider may answer later (the webhook is then refused for a retry). */
export class MediaError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
