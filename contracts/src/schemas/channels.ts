import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { appleBusinessCreateFields } from './apple-business.ts';
import { avitoCreateFields } from './avito.ts';
import { chatPageCreateFields } from './chat-page.ts';
import { emailCreateFields } from './email.ts';
import { mobileAppCreateFields } from './mobile-app.ts';
import { ozonCreateFields } from './ozon.ts';
import { SMS_SERVICES } from './sms-import.ts';
import { siteChatCreateFields } from './widget.ts';
import { yaMarketCreateFields } from './ya-market.ts';

/** Channel types with an adapter on the server; the messenger channels join in their own issues. */
export const CHANNEL_TYPES = [
  'api',
  'telegram',
  'site_chat',
  'email',
  'whatsapp',
  'viber_bot',
  'vk_bot',
  'instagram',
  'facebook',
  'viber',
  'vk',
  'sms',
  'avito',
  'ozon',
  'ya_market',
  'apple_business_chat',
  'chat_page',
  'mobile_app',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const CHANNEL_STATUSES = ['active', 'inactive'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

/** WhatsApp's providers: Meta's Cloud API, or a business solution provider (login and password). */
export const WHATSAPP_PROVIDERS = ['cloud', 'bsp'] as const;
export type WhatsAppProvider = (typeof WHATSAPP_PROVIDERS)[number];

/** The regions of Viber business delivery (§3 Regional delivery): Russia through Devino Telecom, Belarus through SMS.by. */
export const VIBER_REGIONS = ['ru', 'by'] as const;
export type ViberRegion = (typeof VIBER_REGIONS)[number];

export const CHANNEL_LIMITS = {
  nameMax: 255,
  urlMax: 2048,
  thresholdMax: 100_000,
  emailMax: 254,
  visibleTeamsMax: 100,
  ratingMessageMax: 1000,
} as const;

/** An absolute http: or https: URL; javascript:, data:, file: and the like are refused (a link the web app opens). */
export function isHttpUrl(v: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}
const httpUrl = z
  .string(M.valueIncorrect)
  .trim()
  .max(CHANNEL_LIMITS.urlMax, M.valueIncorrect)
  .refine(isHttpUrl, M.valueIncorrect);
const minutes = z
  .number(M.timeIncorrect)
  .int(M.timeIncorrect)
  .min(1, M.timeIncorrect)
  .max(CHANNEL_LIMITS.thresholdMax, M.timeIncorrect)
  .nullable();

/** Fields every channel has, whatever its type. */
const common = {
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(CHANNEL_LIMITS.nameMax, M.nameIncorrect),
  teamId: z.uuid(M.teamIncorrect),
  status: z.enum(CHANNEL_STATUSES, M.valueIncorrect),
  /** Minutes since the client's unanswered message after which the chat turns yellow. */
  halfExpiredMinutes: minutes,
  /** ... and red. */
  expiredMinutes: minutes,
  /** Where the channel's notifications are e-mailed; null for none. */
  notificationEmail: z
    .string(M.emailIncorrect)
    .trim()
    .max(CHANNEL_LIMITS.emailMax, M.emailIncorrect)
    .pipe(z.email(M.emailIncorrect))
    .nullable(),
  /** Teams that see the channel besides its own team (§2.6 'team channel visibility'). */
  visibleTeamIds: z
    .array(z.uuid(M.teamIncorrect), M.teamIncorrect)
    .max(CHANNEL_LIMITS.visibleTeamsMax, M.teamIncorrect),
  /** Service assessment (§3): the client may rate the service before the dialog ends (OPTION_QUALITY_ASSESSMENT). */
  ratingBeforeEnd: z.boolean(M.valueIncorrect),
  /** The text that asks the client for the rating; null for the default one. */
  ratingMessage: z
    .string(M.valueIncorrect)
    .trim()
    .max(CHANNEL_LIMITS.ratingMessageMax, M.valueIncorrect)
    .transform((v) => v || null)
    .nullable(),
  /**
   * Service assessment in one object (issue "service rating"): `enabled` asks the client to rate when a chat closes;
   * `beforeEnd` and `text` are ratingBeforeEnd and ratingMessage.
   */
  assessment: z
    .object(
      {
        enabled: z.boolean(M.valueIncorrect),
        beforeEnd: z.boolean(M.valueIncorrect),
        text: z
          .string(M.valueIncorrect)
          .trim()
          .max(CHANNEL_LIMITS.ratingMessageMax, M.valueIncorrect)
          .transform((v) => v || null)
          .nullable(),
      },
      M.valueIncorrect,
    )
    .partial(),
};

/** The fields every channel has (and its type): everything else in a create or update body is the type's own. */
export const CHANNEL_COMMON_FIELDS: readonly string[] = ['type', ...Object.keys(common)];

/**
 * Each type's own fields of the create and update bodies (DECISIONS.md: one flat body `{type, name, teamId, ...}`).
 * Secrets among them are write-only: never answered after saving. A type without an adapter has none here.
 */
const metaLoginFields = z.object({
  grant: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(8192, M.tokenIncorrect),
  pageId: z
    .string(M.valueIncorrect)
    .trim()
    .regex(/^\d{1,30}$/, M.valueIncorrect),
});

/** A VK community's id, and a community access token (both VK types). */
const vkGroupId = z
  .string(M.tokenIncorrect)
  .trim()
  .regex(/^\d{1,15}$/, M.tokenIncorrect);
const vkToken = z
  .string(M.tokenIncorrect)
  .trim()
  .regex(/^[A-Za-z0-9._-]{20,512}$/, M.tokenIncorrect);

/** How a Telegram channel receives its bot's updates. */
export const TELEGRAM_UPDATES_VIA = ['webhook', 'polling'] as const;
export type TelegramUpdatesVia = (typeof TELEGRAM_UPDATES_VIA)[number];

export const CHANNEL_TYPE_FIELDS = {
  api: z.object({ webhookUrl: httpUrl }),
  /** A bot token from @BotFather: `<bot id>:<secret>`; checked with the Bot API (getMe) when saved. */
  telegram: z.object({
    token: z
      .string(M.tokenIncorrect)
      .trim()
      .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, M.tokenIncorrect),
    /**
     * How the bot's updates reach us: Telegram posts them to our webhook (needs a public HTTPS address), or we ask
     * for them (getUpdates long polling: works behind a firewall). Absent when creating: webhook when PUBLIC_URL
     * looks public (addressTakesWebhooks), else polling; an existing channel keeps its way.
     */
    updatesVia: z.enum(TELEGRAM_UPDATES_VIA, M.incorrectValue).optional(),
  }),
  /** The site widget's settings (schemas/widget.ts); no secret the customer gives. */
  site_chat: siteChatCreateFields,
  /** A mailbox: IMAP to receive, SMTP to send (schemas/email.ts); the passwords are write-only. */
  email: emailCreateFields,
  /**
   * WhatsApp Business, by `provider`: Meta's Cloud API (`cloud`, the default when absent) with the business phone
   * number's id, its WhatsApp Business Account id, a (system user) access token, the Meta app's secret (webhook
   * signatures) and the verify token we chose for the webhook's subscription check (checked against the phone
   * number endpoint when saved); or a business solution provider (`bsp`, §3 'phone, provider login and password')
   * with the business phone and the provider account's login and password (checked with the provider when saved).
   * Which fields each provider needs is checked by the adapter: the cloud ones 'Token specified incorrectly' when
   * missing, the bsp ones 'Please fill in all required fields'.
   */
  whatsapp: z.object({
    provider: z.enum(WHATSAPP_PROVIDERS, M.valueIncorrect).optional(),
    phoneNumberId: z
      .string(M.tokenIncorrect)
      .trim()
      .regex(/^\d{5,30}$/, M.tokenIncorrect)
      .optional(),
    wabaId: z
      .string(M.tokenIncorrect)
      .trim()
      .regex(/^\d{5,30}$/, M.tokenIncorrect)
      .optional(),
    accessToken: z
      .string(M.tokenIncorrect)
      .trim()
      .min(20, M.tokenIncorrect)
      .max(1024, M.tokenIncorrect)
      .optional(),
    appSecret: z
      .string(M.tokenIncorrect)
      .trim()
      .regex(/^[A-Za-z0-9]{16,128}$/, M.tokenIncorrect)
      .optional(),
    verifyToken: z
      .string(M.valueIncorrect)
      .trim()
      .min(8, M.valueIncorrect)
      .max(255, M.valueIncorrect)
      .optional(),
    phone: z
      .string(M.requiredFields)
      .trim()
      .min(1, M.requiredFields)
      .transform((v) => v.replace(/[\s()-]/g, ''))
      .pipe(z.string().regex(/^\+?\d{10,15}$/, M.phoneIncorrect))
      .optional(),
    login: z.string(M.requiredFields).trim().min(1, M.requiredFields).max(255, M.valueIncorrect).optional(),
    password: z.string(M.requiredFields).min(1, M.requiredFields).max(255, M.valueIncorrect).optional(),
  }),
  /** A Viber bot's authentication token (Viber admin panel); checked with get_account_info when saved. */
  viber_bot: z.object({
    token: z
      .string(M.tokenIncorrect)
      .trim()
      .regex(/^[A-Za-z0-9]{8,64}(-[A-Za-z0-9]{8,64}){1,4}$/, M.tokenIncorrect),
    /** Answered to a client who opens the bot's chat (conversation_started); empty or null for none. */
    welcomeMessage: z.string(M.valueIncorrect).trim().max(7000, M.valueIncorrect).nullable().optional(),
    /**
     * The bot's photo beside its messages (§3 'Viber: photo (jpg)'): an uploaded file of the organisation
     * (`/api/files/{key}`, POST /api/files), a JPEG by its content ('JPEG only'); empty or null removes it.
     */
    photo: z
      .string(M.valueIncorrect)
      .trim()
      .max(CHANNEL_LIMITS.urlMax, M.valueIncorrect)
      .nullable()
      .optional(),
  }),
  /**
   * A VK community bot (Callback API): the community's id, a community access token (checked with groups.getById
   * when saved), the Callback API's secret key and the confirmation string VK shows for the server.
   */
  // Or, logged in with VK (the guide): `grant` (sealed community token our OAuth callback handed back) and
  // `groupId`; the secret and confirmation are then set up by us (groups.addCallbackServer), so all but groupId
  // are optional here and the server asks for what the chosen way needs.
  vk_bot: z.object({
    groupId: vkGroupId,
    token: vkToken.optional(),
    secret: z
      .string(M.valueIncorrect)
      .trim()
      .regex(/^[A-Za-z0-9]{1,50}$/, M.valueIncorrect)
      .optional(),
    confirmation: z
      .string(M.valueIncorrect)
      .trim()
      .regex(/^[A-Za-z0-9]{1,64}$/, M.valueIncorrect)
      .optional(),
    grant: z.string(M.tokenIncorrect).trim().min(1, M.tokenIncorrect).max(8192, M.tokenIncorrect).optional(),
  }),
  /**
   * A VK community through the Bots Long Poll API (no public address needed): the community's id and a community
   * access token with the messages right (and, to turn the Long Poll API on for us, community management).
   */
  vk: z.object({ groupId: vkGroupId, token: vkToken }),
  /**
   * Instagram and Facebook Messenger, connected by logging in with Meta: `grant` is what our OAuth callback handed
   * back (sealed; it names the organisation and expires), `pageId` the chosen page (GET oauth accounts).
   */
  instagram: metaLoginFields,
  facebook: metaLoginFields,
  /**
   * Viber business messages through the region's provider (§3 'Regional delivery: region (Russia, Belarus)', §5
   * 'provider login and password required; phone and Viber service id'; DECISIONS.md "Regional Viber providers"):
   * the provider account's login and password (Devino: the cabinet's, HTTP Basic; SMS.by: its API key as the
   * password), the Viber sender registered at the provider (Devino's sender name, at most 11 characters; SMS.by's
   * numeric sender id) and the business's phone. Russia only: `smsFallback` sends the text as SMS from `smsSender`
   * when Viber does not deliver it. Checked with the provider when saved.
   */
  viber: z.object({
    region: z.enum(VIBER_REGIONS, M.requiredFields),
    login: z.string(M.requiredFields).trim().min(1, M.requiredFields).max(255, M.valueIncorrect),
    password: z.string(M.requiredFields).min(1, M.requiredFields).max(255, M.valueIncorrect),
    serviceId: z
      .string(M.requiredFields)
      .trim()
      .min(1, M.requiredFields)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/, M.tokenIncorrect),
    phone: z
      .string(M.requiredFields)
      .trim()
      .min(1, M.requiredFields)
      .transform((v) => v.replace(/[\s()-]/g, ''))
      .pipe(z.string().regex(/^\+?\d{10,15}$/, M.phoneIncorrect)),
    smsFallback: z.boolean(M.valueIncorrect).optional(),
    /** Devino's `smsSrcAddress`: an SMS sender approved in its cabinet, up to 11 Latin letters or digits. */
    smsSender: z
      .string(M.valueIncorrect)
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,10}$/, M.valueIncorrect)
      .optional(),
  }),
  /**
   * SMS sent through an outside SMS service, imported into the clients' histories (issue 33; not a §3 type: nothing
   * is sent through it): which service, for its export files and callbacks. Its callback key is made on creation.
   */
  sms: z.object({ service: z.enum(SMS_SERVICES, M.requiredFields) }),
  avito: avitoCreateFields,
  ozon: ozonCreateFields,
  ya_market: yaMarketCreateFields,
  apple_business_chat: appleBusinessCreateFields,
  chat_page: chatPageCreateFields,
  mobile_app: mobileAppCreateFields,
} as const satisfies Record<ChannelType, z.ZodObject>;

/** A page offered after logging in with Meta (the Instagram business account linked to it, for Instagram). */
export const oauthAccountDto = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string().nullable(),
});
export type OauthAccountDto = z.output<typeof oauthAccountDto>;
export const oauthStartDto = z.object({ url: z.string() });
/**
 * `POST /api/channels/oauth/accounts`: the grant travels in the body, never in a URL (a URL is logged by servers and
 * proxies and kept in the browser's history; issue 29).
 */
export const oauthAccountsBody = z.object({
  type: z.enum(CHANNEL_TYPES, M.valueIncorrect),
  grant: z.string(M.valueIncorrect).min(1, M.valueIncorrect).max(8192),
});

const thresholdsInOrder = (v: { halfExpiredMinutes?: number | null; expiredMinutes?: number | null }) =>
  v.halfExpiredMinutes == null || v.expiredMinutes == null || v.halfExpiredMinutes < v.expiredMinutes;

const createOf = <T extends ChannelType>(type: T) =>
  z
    .object({
      type: z.literal(type, M.valueIncorrect),
      ...common,
      status: common.status.default('active'),
      halfExpiredMinutes: common.halfExpiredMinutes.default(null),
      expiredMinutes: common.expiredMinutes.default(null),
      notificationEmail: common.notificationEmail.default(null),
      visibleTeamIds: common.visibleTeamIds.default([]),
      ratingBeforeEnd: common.ratingBeforeEnd.default(false),
      ratingMessage: common.ratingMessage.default(null),
      assessment: common.assessment.optional(),
    })
    .extend(CHANNEL_TYPE_FIELDS[type].shape);

export const channelCreateSchema = z
  .discriminatedUnion(
    'type',
    [
      createOf('api'),
      createOf('telegram'),
      createOf('site_chat'),
      createOf('email'),
      createOf('whatsapp'),
      createOf('viber_bot'),
      createOf('vk_bot'),
      createOf('instagram'),
      createOf('facebook'),
      createOf('viber'),
      createOf('vk'),
      createOf('sms'),
      createOf('avito'),
      createOf('ozon'),
      createOf('ya_market'),
      createOf('apple_business_chat'),
      createOf('chat_page'),
      createOf('mobile_app'),
    ],
    M.valueIncorrect,
  )
  .refine(thresholdsInOrder, { path: ['expiredMinutes'], message: M.timeIncorrect });
export type ChannelCreateInput = z.output<typeof channelCreateSchema>;

/** The common fields, partial; the type's own fields are validated by its adapter (the type is the channel's). */
export const channelUpdateSchema = z
  .object(common)
  .partial()
  .catchall(z.unknown())
  .refine(thresholdsInOrder, { path: ['expiredMinutes'], message: M.timeIncorrect });

export const ATTACHMENT_LIMITS = { max: 10, urlMax: 2048, nameMax: 255 } as const;
const required = (max: number) =>
  z.string(M.requiredFields).trim().min(1, M.requiredFields).max(max, M.valueIncorrect);
const optionalText = (max: number) => z.string(M.valueIncorrect).trim().max(max, M.valueIncorrect);

export const attachmentSchema = z.object(
  {
    url: required(ATTACHMENT_LIMITS.urlMax).refine(isHttpUrl, M.valueIncorrect),
    name: optionalText(ATTACHMENT_LIMITS.nameMax).optional(),
    contentType: optionalText(255).optional(),
    size: z.number(M.valueIncorrect).int(M.valueIncorrect).min(0, M.valueIncorrect).optional(),
  },
  M.valueIncorrect,
);
export type Attachment = z.output<typeof attachmentSchema>;

export const MESSAGE_TEXT_MAX = 10_000;

/** What an API channel pushes to `POST /api/channels/{id}/inbound`. */
export const inboundMessageSchema = z
  .object({
    externalMessageId: required(255),
    client: z.object(
      {
        externalId: required(255),
        name: z.string(M.nameIncorrect).trim().max(255, M.nameIncorrect).default(''),
      },
      M.requiredFields,
    ),
    text: z.string(M.valueIncorrect).max(MESSAGE_TEXT_MAX, M.valueIncorrect).default(''),
    attachments: z
      .array(attachmentSchema, M.valueIncorrect)
      .max(ATTACHMENT_LIMITS.max, M.valueIncorrect)
      .default([]),
    /** What the conversation is about in the integrator's system (an order, a listing): shown with the chat. */
    topic: z
      .object(
        {
          kind: z.enum(['listing', 'order'], M.valueIncorrect),
          id: required(255),
          title: optionalText(500).default(''),
          url: z
            .string(M.valueIncorrect)
            .trim()
            .max(CHANNEL_LIMITS.urlMax, M.valueIncorrect)
            .refine(isHttpUrl, M.valueIncorrect)
            .nullable()
            .default(null),
        },
        M.valueIncorrect,
      )
      .optional(),
  })
  .refine((v) => v.text.trim() !== '' || v.attachments.length > 0, {
    path: ['text'],
    message: M.requiredFields,
  });

/** Delivery statuses a provider may report on one of our messages; a message's status only moves forward. */
export const PROVIDER_DELIVERY_STATUSES = ['delivered', 'read'] as const;

/**
 * What an API channel posts to `POST /api/channels/{id}/status` (Authorization: Bearer <inboundKey>):
 * `messageId` is our outbound message's id, as the webhook payload carries it.
 */
export const deliveryStatusSchema = z.object({
  messageId: z.uuid(M.valueIncorrect),
  status: z.enum(PROVIDER_DELIVERY_STATUSES, M.valueIncorrect),
});
export type DeliveryStatusUpdate = z.output<typeof deliveryStatusSchema>;

export type ChannelDto = {
  id: string;
  type: ChannelType;
  name: string;
  teamId: string;
  team: { id: string; name: string };
  status: ChannelStatus;
  /** The type's settings (never its secrets), e.g. the API channel's webhookUrl. */
  settings: Record<string, unknown>;
  halfExpiredMinutes: number | null;
  expiredMinutes: number | null;
  notificationEmail: string | null;
  visibleTeamIds: string[];
  ratingBeforeEnd: boolean;
  ratingMessage: string | null;
  /** Service assessment: asked when a chat closes (enabled), also before its end (beforeEnd), with this text. */
  assessment: { enabled: boolean; beforeEnd: boolean; text: string | null };
  /** Where the provider (or the integrator) posts customer messages. */
  inboundUrl: string;
  /** When the latest customer message of the channel's chats arrived; null before the first one. */
  lastInboundAt: string | null;
  /**
   * The latest provider update the channel could not read that named no client to tell (answered 2xx so the
   * provider does not retry it forever): when, and why; null when there was none.
   */
  lastUnreadable: { at: string; reason: string } | null;
  createdAt: string;
};

/** Answer of channel creation: the only time keys we generated are shown (the API channel's inbound key and webhook secret). */
export type ChannelCreatedDto = ChannelDto & {
  inboundKey?: string;
  webhookSecret?: string;
  /** A mobile app channel's identity secret: answered at creation and when rotated, never again. */
  identitySecret?: string;
};

/** Path of `POST /api/webhooks/{type}/{channelId}`: a provider's webhook for one channel. */
export const webhookParams = z.object({
  type: z.enum(CHANNEL_TYPES, 'Not found'),
  channelId: z.uuid('Not found'),
});

/**
 * A channel in trouble (issue 36, §8 'Problem detected!'): the provider refused its token, could not be reached for
 * a while, or its webhook sends what cannot be read.
 */
export const CHANNEL_PROBLEM_KINDS = ['token_refused', 'unreachable', 'webhook_failing'] as const;
export type ChannelProblemKind = (typeof CHANNEL_PROBLEM_KINDS)[number];
export type ChannelProblemDto = {
  id: string;
  channelId: string;
  channelName: string;
  kind: ChannelProblemKind;
  /** The provider's or our own words about the last occurrence. */
  detail: string;
  since: string;
  lastSeenAt: string;
};
export const channelProblemDto = z.object({
  id: z.uuid(),
  channelId: z.uuid(),
  channelName: z.string(),
  kind: z.enum(CHANNEL_PROBLEM_KINDS),
  detail: z.string(),
  since: z.iso.datetime({ offset: true }),
  lastSeenAt: z.iso.datetime({ offset: true }),
});
/** `channel.problems`: a problem of a channel opened or ended; administrators read the list again. */
export type ChannelProblemsPayload = { channelId: string };
