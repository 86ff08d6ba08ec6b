import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** Limits of the site-chat widget's protocol (one source of truth for server and widget). */
export const WIDGET_LIMITS = {
  /** Longest visitor message, in characters. */
  textMax: 2000,
  /** Largest file a visitor may send. */
  fileMaxBytes: 5 * 1024 * 1024,
  /** Messages one visitor may send per minute. */
  visitorMessagesPerMinute: 20,
  /** Messages all visitors of one address may send per minute. */
  addressMessagesPerMinute: 60,
  /** New visitor identities one address may take per hour. */
  addressVisitorsPerHour: 30,
  titleMax: 100,
  textSettingMax: 1000,
  channelListMax: 10,
} as const;

/** File types a visitor may send, recognised by their content (not their name). */
export const WIDGET_FILE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
] as const;

export const WIDGET_DISPLAYS = ['closed', 'open', 'initial'] as const;

const text = (max: number) => z.string(M.valueIncorrect).trim().max(max, M.valueIncorrect);
const link = z
  .string(M.valueIncorrect)
  .trim()
  .max(2048, M.valueIncorrect)
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, M.valueIncorrect);

/**
 * The channel list may also be given as text, one `Name URL` a line (the web form's textarea); anything else is
 * left for the array schema to judge.
 */
function linesToLinks(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  return v
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const at = l.search(/\s\S+$/);
      return at > 0 ? { name: l.slice(0, at).trim(), url: l.slice(at).trim() } : { name: l, url: '' };
    });
}

/** The site widget's settings (§3): welcome message, title, subtitle, logo, channel list, display, initial title. */
const siteChatShape = {
  welcomeMessage: text(WIDGET_LIMITS.textSettingMax),
  title: text(WIDGET_LIMITS.titleMax),
  subtitle: text(WIDGET_LIMITS.titleMax),
  logo: z.union([link, z.literal('')]),
  /** Links to the organisation's other messengers, shown in the panel. */
  channelList: z.preprocess(
    linesToLinks,
    z
      .array(z.object({ name: text(64).min(1, M.valueIncorrect), url: link }), M.valueIncorrect)
      .max(WIDGET_LIMITS.channelListMax, M.valueIncorrect),
  ),
  /** closed: the launcher only; open: the panel open on load; initial: the launcher with a teaser (initial title). */
  display: z.enum(WIDGET_DISPLAYS, M.valueIncorrect),
  initialTitle: text(WIDGET_LIMITS.titleMax),
};
export const siteChatCreateFields = z.object({
  welcomeMessage: siteChatShape.welcomeMessage.default(''),
  title: siteChatShape.title.default(''),
  subtitle: siteChatShape.subtitle.default(''),
  logo: siteChatShape.logo.default(''),
  channelList: siteChatShape.channelList.default([]),
  display: siteChatShape.display.default('closed'),
  initialTitle: siteChatShape.initialTitle.default(''),
});
export const siteChatUpdateFields = z.object(siteChatShape).partial();
export type SiteChatSettings = z.output<typeof siteChatCreateFields>;

/** What a widget loads first: the channel's settings and whether it accepts messages. */
export type WidgetConfigDto = SiteChatSettings & {
  channelId: string;
  active: boolean;
  /** Closing a chat asks the visitor for a rating. */
  assessment: boolean;
  /** The platform's support channel identifies signed-in users (no anonymous visitor). */
  support: boolean;
  /** The protocol's limits, so the widget says them before the server refuses (it does not bundle these schemas). */
  limits: { textMax: number; fileMaxBytes: number; fileTypes: readonly string[] };
};

/** The visitor's identity: `token` is signed by the server (a visitor cannot forge another one's). */
export type WidgetVisitorDto = { visitorId: string; token: string };

/**
 * A bot's button rows as the widget receives them (the shape of buttons.ts's ButtonRows, written out here: buttons.ts
 * reads channels.ts, which reads this file, so an import would be a cycle).
 */
export type WidgetButtonRows = ({ text: string; payload: string } | { text: string; url: string })[][];

export type WidgetMessageDto = {
  id: string;
  direction: 'in' | 'out';
  text: string;
  attachments: { url: string; name?: string; contentType?: string; size?: number }[];
  status: 'pending' | 'sent' | 'delivered' | 'read' | 'undelivered' | null;
  /** The operator who wrote an outgoing message (never for the visitor's own). */
  author: { name: string; avatarUrl: string | null } | null;
  /** A chat bot's buttons under an outgoing message (the widget shows them as buttons; pressing sends the payload). */
  buttons: WidgetButtonRows | null;
  /** Written by a chat bot (the widget marks it as the bot's, not an operator's). */
  bot: boolean;
  createdAt: string;
};

/** A pending rating request the widget shows as buttons (the link's uuid). */
export type WidgetRatingDto = { uuid: string; text: string } | null;

export const widgetVisitorBodySchema = z
  .object({
    name: text(64).optional(),
    email: z.union([z.email(M.emailIncorrect).max(254, M.emailIncorrect), z.literal('')]).optional(),
    phone: z.union([text(32).regex(/^\+?[0-9 ()-]{5,32}$/, M.valueIncorrect), z.literal('')]).optional(),
  })
  .default({});

export const widgetSendSchema = z
  .object({
    /** The widget's own id of the message: a resend after a drop is one message. */
    clientMessageId: z.string(M.valueIncorrect).regex(/^[A-Za-z0-9_-]{8,64}$/, M.valueIncorrect),
    text: z.string(M.valueIncorrect).max(WIDGET_LIMITS.textMax, M.valueIncorrect).default(''),
    /** Keys of files this visitor uploaded (POST /api/widget/{channelId}/files). */
    files: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{20,}$/, M.valueIncorrect), M.valueIncorrect)
      .max(5, M.valueIncorrect)
      .default([]),
    /** The payload of a bot's button the visitor pressed (`text` is then the button's label). */
    payload: z
      .string(M.valueIncorrect)
      .min(1, M.valueIncorrect)
      .refine((v) => new TextEncoder().encode(v).length <= 64, M.valueIncorrect)
      .describe("A bot button's payload, 1-64 bytes of UTF-8 (BUTTON_LIMITS.payloadMaxBytes)")
      .optional(),
  })
  .refine((v) => v.text.trim() !== '' || v.files.length > 0, { path: ['text'], message: M.requiredFields });

export const widgetReadSchema = z.object({
  messageIds: z
    .array(z.uuid(M.valueIncorrect), M.valueIncorrect)
    .min(1, M.valueIncorrect)
    .max(100, M.valueIncorrect),
  status: z.enum(['delivered', 'read'], M.valueIncorrect),
});

/** `after`: the id of the last message the widget has; it gets what was stored after that one. */
export const widgetAfterQuery = z.object({ after: z.uuid(M.valueIncorrect).optional() });

/** Response schemas of the widget's routes (the OpenAPI description). */
export const widgetConfigDto = z.object({
  channelId: z.uuid(),
  welcomeMessage: z.string(),
  title: z.string(),
  subtitle: z.string(),
  logo: z.string(),
  channelList: z.array(z.object({ name: z.string(), url: z.string() })),
  display: z.enum(WIDGET_DISPLAYS),
  initialTitle: z.string(),
  active: z.boolean(),
  assessment: z.boolean(),
  support: z.boolean(),
  limits: z.object({ textMax: z.number(), fileMaxBytes: z.number(), fileTypes: z.array(z.string()) }),
});
export const widgetVisitorDto = z.object({ visitorId: z.string(), token: z.string() });
export const widgetMessageDto = z.object({
  id: z.uuid(),
  direction: z.enum(['in', 'out']),
  text: z.string(),
  attachments: z.array(
    z.object({
      url: z.string(),
      name: z.string().optional(),
      contentType: z.string().optional(),
      size: z.number().optional(),
    }),
  ),
  status: z.enum(['pending', 'sent', 'delivered', 'read', 'undelivered']).nullable(),
  author: z.object({ name: z.string(), avatarUrl: z.string().nullable() }).nullable(),
  buttons: z
    .array(
      z.array(
        z.union([
          z.object({ text: z.string(), payload: z.string() }),
          z.object({ text: z.string(), url: z.string() }),
        ]),
      ),
    )
    .nullable(),
  bot: z.boolean(),
  createdAt: z.string(),
});
export const widgetRatingDto = z.object({ uuid: z.uuid(), text: z.string() }).nullable();
export const widgetHistoryDto = z.object({ items: z.array(widgetMessageDto), rating: widgetRatingDto });
export const widgetFileDto = z.object({
  key: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
export const okDto = z.object({ ok: z.literal(true) });
