import { z } from 'zod';
import { PLAN_OPTIONS } from '../options.ts';
import { RIGHTS } from '../rights.ts';
import type { LoginResult } from './auth.ts';
import { billingStateDto } from './billing.ts';
import { buttonRowsSchema } from './buttons.ts';
import {
  attachmentSchema,
  CHANNEL_STATUSES,
  CHANNEL_TYPES,
  type ChannelCreatedDto,
  type ChannelDto,
} from './channels.ts';
import {
  CHAT_HISTORY_KINDS,
  CHAT_STATUSES,
  type ChatCountersDto,
  type ChatDto,
  type ChatHistoryDto,
  DELIVERY_STATUSES,
  MESSAGE_KINDS,
  type MessageDto,
  OVERDUE_LEVELS,
} from './chats.ts';
import type { ClientDto } from './clients.ts';
import { PRESENCE_REASONS, type PresenceDto } from './presence.ts';
import type { RoleDto } from './roles.ts';
import { DISTRIBUTION_METHODS, type TeamDto } from './teams.ts';
import { type CurrentUserDto, LANGUAGES, PRESENCE, type UserDto, type UserShortDto } from './users.ts';

/**
 * The `entity` of each answer as zod schemas, for the OpenAPI description. The DTO types stay the source the
 * presenters are typed with; the checks at the bottom fail the type-check when a schema and its type drift apart.
 */
const ref = z.object({ id: z.uuid(), name: z.string() });
const at = z.iso.datetime({ offset: true });

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int().min(0) });
export const idEntity = z.object({ id: z.uuid() });

export const userDto = z.object({
  id: z.uuid(),
  organisationId: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  photoUrl: z.string().nullable(),
  role: z.object({ id: z.uuid(), name: z.string(), builtIn: z.string().nullable() }),
  teams: z.array(ref),
  breakTimeoutMinutes: z.number().int().nullable(),
  language: z.enum(LANGUAGES),
  active: z.boolean(),
  presence: z.enum(PRESENCE),
  twoFactorEnabled: z.boolean(),
  lastActivityAt: at.nullable(),
  createdAt: at,
});

export const currentUserDto = userDto.extend({
  role: userDto.shape.role.extend({ rights: z.array(z.string()) }),
  rights: z.array(z.string()),
  options: z.array(z.string()),
  organisation: z.object({
    id: z.uuid(),
    name: z.string(),
    login: z.string(),
    language: z.enum(LANGUAGES),
    billing: billingStateDto,
  }),
  eventCursor: z.string().nullable(),
});

export const userShortDto = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  photoUrl: z.string().nullable(),
});

export const teamDto = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  distributionMethod: z.enum(DISTRIBUTION_METHODS),
  dialogLimit: z.number().int(),
  autoRedistributionMinutes: z.number().int().nullable(),
  autoCloseMinutes: z.number().int().nullable(),
  inactivityHours: z.number().int(),
  memberCount: z.number().int(),
  members: z.array(ref),
  createdAt: at,
});

export const roleDto = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  rights: z.array(z.enum(RIGHTS)),
  builtIn: z.string().nullable(),
  userCount: z.number().int(),
});

export const rightsDto = z.object({
  rights: z.array(z.enum(RIGHTS)),
  options: z.array(z.enum(PLAN_OPTIONS)),
});

export const loginResultDto = z.union([
  z.object({ token: z.string() }),
  z.object({ twoFactorRequired: z.literal(true), ticket: z.string() }),
]);
export const tokenDto = z.object({ token: z.string() });
export const twoFactorEnrolmentDto = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qr: z.string().describe('PNG image as a data: URL'),
});
export const healthDto = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });
/** `GET /api/ready`: each dependency's check; 503 with status 'unavailable' when one fails ('off' is not required). */
export const readyCheck = z.enum(['ok', 'fail', 'off']);
export const readyDto = z.object({
  /** 'draining': the instance is shutting down and takes no new traffic (answered with 503, like 'unavailable'). */
  status: z.enum(['ready', 'unavailable', 'draining']),
  checks: z.object({ database: readyCheck, redis: readyCheck, jobs: readyCheck }),
});
export type ReadyDto = z.infer<typeof readyDto>;

export const channelDto = z.object({
  id: z.uuid(),
  type: z.enum(CHANNEL_TYPES),
  name: z.string(),
  teamId: z.uuid(),
  team: ref,
  status: z.enum(CHANNEL_STATUSES),
  settings: z.record(z.string(), z.unknown()).describe("The type's settings, never its secrets"),
  halfExpiredMinutes: z.number().int().nullable(),
  expiredMinutes: z.number().int().nullable(),
  notificationEmail: z.string().nullable(),
  visibleTeamIds: z.array(z.uuid()).describe('Teams that see the channel besides its own'),
  ratingBeforeEnd: z.boolean().describe('Service assessment: the client may rate before the dialog ends'),
  ratingMessage: z.string().nullable(),
  assessment: z
    .object({ enabled: z.boolean(), beforeEnd: z.boolean(), text: z.string().nullable() })
    .describe('Service assessment: asked when a chat closes (enabled), also before its end, with this text'),
  inboundUrl: z.string(),
  lastInboundAt: at.nullable().describe("When the latest customer message of the channel's chats arrived"),
  lastUnreadable: z
    .object({ at, reason: z.string() })
    .nullable()
    .describe(
      'The latest provider update the channel could not read that named no client (answered 2xx, logged): when and why',
    ),
  createdAt: at,
});
export const channelCreatedDto = channelDto.extend({
  inboundKey: z
    .string()
    .optional()
    .describe('API channel, shown only here: the Bearer key of POST /api/channels/{id}/inbound'),
  webhookSecret: z
    .string()
    .optional()
    .describe('API channel, shown only here: signs the outbound webhook requests'),
  identitySecret: z
    .string()
    .optional()
    .describe("Mobile app channel, shown only at creation and rotation: signs the app users' identities"),
});
export const webhookResultDto = z.object({
  events: z
    .array(z.string())
    .describe('What the request carried, in order: message, edit, status, postback, opt_out'),
});
export const ingestResultDto = z.object({
  duplicate: z.boolean().describe('true when this externalMessageId was already taken in: nothing changed'),
  messageId: z.uuid(),
  chatId: z.uuid(),
});

export const chatDto = z.object({
  id: z.uuid(),
  status: z.enum(CHAT_STATUSES),
  channel: ref.extend({
    type: z.enum(CHANNEL_TYPES),
    templates: z
      .boolean()
      .describe("The channel sends the provider's registered templates (WhatsApp Cloud API; not a BSP's)"),
  }),
  team: ref,
  operator: ref.nullable(),
  client: ref.extend({ externalId: z.string(), personalManagerId: z.uuid().nullable() }),
  category: ref.extend({ path: z.array(z.string()) }).nullable(),
  session: z.number().int(),
  overdueLevel: z.enum(OVERDUE_LEVELS),
  assignedAt: at.nullable(),
  closedAt: at.nullable(),
  lastClientMessageAt: at.nullable(),
  lastOperatorMessageAt: at.nullable(),
  lastMessage: z.object({ text: z.string(), at }).nullable(),
  topic: z
    .object({
      kind: z.enum(['listing', 'order']),
      id: z.string(),
      title: z.string(),
      url: z.string().nullable(),
    })
    .nullable(),
  createdAt: at,
  updatedAt: at,
});
export const messageDto = z.object({
  id: z.uuid(),
  chatId: z.uuid(),
  direction: z.enum(['in', 'out']),
  kind: z.enum(MESSAGE_KINDS),
  internal: z.boolean(),
  text: z.string(),
  attachments: z.array(attachmentSchema),
  buttons: buttonRowsSchema
    .nullable()
    .describe(
      "Buttons under the message (a bot's reply), in rows: {text, payload} postbacks or {text, url} links; null when none",
    ),
  status: z.enum(DELIVERY_STATUSES).nullable(),
  statusReason: z.string().nullable().describe("Why the message is Undelivered (the provider's words)"),
  author: ref.nullable(),
  bot: ref.nullable().describe('The chat bot that wrote the message (a bot badge); null otherwise'),
  externalMessageId: z.string().nullable(),
  editedAt: at.nullable(),
  createdAt: at,
});
export const chatHistoryDto = z.object({
  id: z.uuid(),
  kind: z.enum(CHAT_HISTORY_KINDS),
  actorId: z.uuid().nullable(),
  fromUserId: z.uuid().nullable(),
  toUserId: z.uuid().nullable(),
  fromTeamId: z.uuid().nullable(),
  toTeamId: z.uuid().nullable(),
  categoryId: z.uuid().nullable(),
  score: z.number().int().min(1).max(5).nullable().describe("The client's rating 1..5 (kind 'rated')"),
  ruleId: z.uuid().nullable(),
  ruleName: z.string().nullable(),
  toBotId: z.uuid().nullable().describe("kind 'transfer' to a chat bot: the bot (null once deleted)"),
  botName: z.string().nullable().describe("kind 'transfer' to a chat bot: the bot's name at that moment"),
  categoryPath: z.array(z.string()).nullable(),
  createdAt: at,
});
export const chatCountersDto = z.object({ inProgress: z.number().int(), waiting: z.number().int() });
export const clientDto = z.object({
  id: z.uuid(),
  name: z.string(),
  personalManagerId: z.uuid().nullable(),
  contacts: z.array(
    z.object({
      channelId: z.uuid(),
      externalId: z.string(),
      name: z.string(),
      username: z.string().nullable(),
      email: z
        .string()
        .nullable()
        .describe('What the client gave on this channel (the site chat introduction)'),
      phone: z.string().nullable(),
    }),
  ),
});
export const presenceDto = z.object({
  userId: z.uuid(),
  status: z.enum(PRESENCE),
  reason: z.enum(PRESENCE_REASONS),
  changedAt: at,
});

// Drift checks: each schema describes exactly its DTO type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;
export type ResponseSchemaChecks = [
  Check<Same<z.infer<typeof userDto>, UserDto>>,
  Check<Same<z.infer<typeof currentUserDto>, CurrentUserDto>>,
  Check<Same<z.infer<typeof userShortDto>, UserShortDto>>,
  Check<Same<z.infer<typeof teamDto>, TeamDto>>,
  Check<Same<z.infer<typeof roleDto>, RoleDto>>,
  Check<Same<z.infer<typeof loginResultDto>, LoginResult>>,
  Check<Same<z.infer<typeof channelDto>, ChannelDto>>,
  Check<Same<z.infer<typeof channelCreatedDto>, ChannelCreatedDto>>,
  Check<Same<z.infer<typeof chatDto>, ChatDto>>,
  Check<Same<z.infer<typeof messageDto>, MessageDto>>,
  Check<Same<z.infer<typeof chatHistoryDto>, ChatHistoryDto>>,
  Check<Same<z.infer<typeof chatCountersDto>, ChatCountersDto>>,
  Check<Same<z.infer<typeof clientDto>, ClientDto>>,
  Check<Same<z.infer<typeof presenceDto>, PresenceDto>>,
];
