import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import type { ButtonRows } from './buttons.ts';
import type { ChatCategoryRef } from './categories.ts';
import { type Attachment, attachmentSchema, type ChannelType, MESSAGE_TEXT_MAX } from './channels.ts';
import { queryInt } from './common.ts';

export const CHAT_STATUSES = ['waiting', 'in_progress', 'closed'] as const;
export type ChatStatus = (typeof CHAT_STATUSES)[number];
export const OVERDUE_LEVELS = ['none', 'half_expired', 'expired'] as const;
export type OverdueLevel = (typeof OVERDUE_LEVELS)[number];
export const CHAT_FILTERS = ['assigned', 'waiting', 'closed'] as const;
export type ChatFilter = (typeof CHAT_FILTERS)[number];

export const MESSAGE_KINDS = ['normal', 'internal', 'mailing', 'edited'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const DELIVERY_STATUSES = ['pending', 'sent', 'delivered', 'read', 'undelivered'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const CHAT_HISTORY_KINDS = [
  'created',
  'assign',
  'transfer',
  'close',
  'auto_close',
  'inactivity_close',
  'category_set',
  'category_removed',
  'reopen',
  'redistribution',
  'unassign',
  'takeover',
  'rating_requested',
  'rated',
  'rule',
] as const;
export type ChatHistoryKind = (typeof CHAT_HISTORY_KINDS)[number];

/** Filters of the chat lists (`GET /api/chats`, `GET /api/chats/expired`): channel, team, operator, quick search. */
export const chatListFiltersSchema = z.object({
  channelId: z.uuid(M.valueIncorrect).optional().describe('Only chats of this channel'),
  teamId: z.uuid(M.valueIncorrect).optional().describe('Only chats of this team'),
  operatorId: z.uuid(M.valueIncorrect).optional().describe('Only chats of this operator'),
  q: z
    .string(M.incorrectValue)
    .trim()
    .max(100, M.incorrectValue)
    .optional()
    .describe("Quick search: the client's name or id, or the last message's text"),
  cursor: z
    .string(M.incorrectValue)
    .max(200, M.incorrectValue)
    .optional()
    .describe('nextCursor of the previous page: the page after it (keyset by last activity, newest first)'),
});

export const chatListQuerySchema = chatListFiltersSchema.extend({
  filter: z.enum(CHAT_FILTERS, M.valueIncorrect).default('assigned'),
  limit: queryInt(1, 500, 100),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0).describe('Deprecated: use cursor'),
});
export type ChatListFilters = z.output<typeof chatListFiltersSchema>;

/**
 * `GET /api/chats/{id}/messages`: without `before` the newest `limit` messages; with `before` (the `nextCursor` of
 * the previous answer, a message id) the page just older than that message. Items are oldest first in each page.
 */
export const chatMessagesQuerySchema = z.object({
  limit: queryInt(1, 1000, 200),
  before: z
    .uuid(M.valueIncorrect)
    .optional()
    .describe('Cursor: a message id of this chat (nextCursor of the previous page); the page older than it'),
});

const text = z.string(M.requiredFields).max(MESSAGE_TEXT_MAX, M.valueIncorrect);

export const messageSendSchema = z
  .object({
    text: text.default(''),
    internal: z.boolean(M.valueIncorrect).default(false),
    attachments: z.array(attachmentSchema, M.valueIncorrect).max(10, M.valueIncorrect).default([]),
    clientKey: z
      .string(M.valueIncorrect)
      .regex(/^[A-Za-z0-9_-]{8,64}$/, M.valueIncorrect)
      .optional()
      .describe(
        'Idempotency key chosen by the client for this message (8–64 letters, digits, - or _): a repeat with the same key by the same author in the same chat stores nothing and answers the first message',
      ),
  })
  .refine((v) => v.text.trim() !== '' || v.attachments.length > 0, {
    path: ['text'],
    message: M.requiredFields,
  });

export const messageEditSchema = z.object({
  text: text.refine((v) => v.trim() !== '', M.requiredFields),
});

export const messageParams = z.object({ id: z.uuid('Not found'), messageId: z.uuid('Not found') });

/**
 * Exactly one target: an operator, a team, the client's last operator / personal manager, or a published chat bot of
 * the organisation (§4 transfer to a chat bot; OPTION_CHAT_BOT).
 */
export const transferSchema = z.union(
  [
    z.object({ operatorId: z.uuid(M.valueIncorrect) }).strict(),
    z.object({ teamId: z.uuid(M.teamIncorrect) }).strict(),
    z.object({ target: z.enum(['last_operator', 'personal_manager'], M.valueIncorrect) }).strict(),
    z.object({ botId: z.uuid(M.valueIncorrect) }).strict(),
  ],
  M.valueIncorrect,
);
export type TransferTarget = z.output<typeof transferSchema>;

/**
 * `PUT /api/chats/{id}/category`: a category of any level available to the chat's team, or null to remove it.
 * A body without `categoryId` is 400 sessionCategoryNotSelectedException.
 */
export const chatCategorySchema = z.object({
  categoryId: z
    .uuid(M.valueIncorrect)
    .nullable()
    .optional()
    .describe("A category, theme or subtheme available to the chat's team; null removes the chat's category"),
});

/**
 * Body of `POST /api/chats/{id}/close`, optional: `categoryId` sets the request category (plan option
 * OPTION_CATEGORY) and closes in one step; without it the chat's current category counts.
 */
export const chatCloseSchema = z
  .object({
    categoryId: z
      .uuid(M.valueIncorrect)
      .optional()
      .describe('Request category to set before closing (needs OPTION_CATEGORY); the body may be omitted'),
  })
  .describe('Optional: {} or no body closes with the current category');

export type Ref = { id: string; name: string };

export type ChatDto = {
  id: string;
  status: ChatStatus;
  /**
   * `templates`: the chat's channel sends the provider's registered templates (a WhatsApp Cloud API channel; not
   * one of a business solution provider), so the composer offers them.
   */
  channel: Ref & { type: ChannelType; templates: boolean };
  team: Ref;
  operator: Ref | null;
  client: Ref & { externalId: string; personalManagerId: string | null };
  category: ChatCategoryRef | null;
  session: number;
  overdueLevel: OverdueLevel;
  assignedAt: string | null;
  closedAt: string | null;
  lastClientMessageAt: string | null;
  lastOperatorMessageAt: string | null;
  lastMessage: { text: string; at: string } | null;
  /**
   * What the conversation is about at a marketplace (the Avito listing, the Ozon posting, the Yandex Market order),
   * with a link to it where the provider has one; null for other channels.
   */
  topic: ChatTopicDto | null;
  createdAt: string;
  updatedAt: string;
};

export type ChatTopicDto = { kind: 'listing' | 'order'; id: string; title: string; url: string | null };

export type MessageDto = {
  id: string;
  chatId: string;
  direction: 'in' | 'out';
  kind: MessageKind;
  internal: boolean;
  text: string;
  attachments: Attachment[];
  /** Buttons under the message (a bot's reply), in rows; null when it has none. */
  buttons: ButtonRows | null;
  status: DeliveryStatus | null;
  /** Why the message is Undelivered, in the provider's words; null otherwise. */
  statusReason: string | null;
  author: Ref | null;
  /** The chat bot that wrote the message (shown with a bot badge); null for people and other automation. */
  bot: Ref | null;
  externalMessageId: string | null;
  editedAt: string | null;
  createdAt: string;
};

/**
 * Files an operator attaches (`POST /api/files`, multipart field `file`): at most ATTACHMENT_MAX_BYTES, of a type
 * recognised by content (ATTACHMENT_TYPES; plain UTF-8 text counts as text/plain).
 */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'audio/mpeg',
  'audio/ogg',
  'video/mp4',
  'text/plain',
] as const;

/** A page of a chat's messages (oldest first); `nextCursor` asks for the older page (`?before=`), null at the start. */
export type MessagePage = { items: MessageDto[]; total: number; nextCursor: string | null };

export type ChatHistoryDto = {
  id: string;
  kind: ChatHistoryKind;
  actorId: string | null;
  fromUserId: string | null;
  toUserId: string | null;
  fromTeamId: string | null;
  toTeamId: string | null;
  categoryId: string | null;
  /** The client's rating 1..5 (kind 'rated'). */
  score: number | null;
  /** kind 'rule': the routing rule that routed the chat (its name as it was then; the id is null once deleted). */
  ruleId: string | null;
  ruleName: string | null;
  /** kind 'transfer' to a chat bot: the bot (its name as it was then; the id is null once deleted). */
  toBotId: string | null;
  botName: string | null;
  /** The category set or removed, as its path of names at that moment; null for other events. */
  categoryPath: string[] | null;
  createdAt: string;
};

export type ChatCountersDto = { inProgress: number; waiting: number };

/** A chat in a list, with the client messages the caller has not read yet (counted up to UNREAD_CAP). */
export type ChatListItemDto = ChatDto & { unread: number };
/**
 * A page of a chat list, newest activity first. `nextCursor` asks for the next page (null on the last); `total`
 * counts the list up to LIST_TOTAL_CAP (a bigger list says LIST_TOTAL_CAP).
 */
export type ChatListPage = { items: ChatListItemDto[]; total: number; nextCursor: string | null };
export const LIST_TOTAL_CAP = 10_000;
export const UNREAD_CAP = 100;

/** `GET /api/search/messages` and `/api/search/clients` (plan option OPTION_EXTENDED_SEARCH). */
export const searchQuerySchema = chatListFiltersSchema.extend({
  q: z
    .string(M.requiredFields)
    .trim()
    .min(1, M.requiredFields)
    .max(200, M.incorrectValue)
    .describe(
      'Words to find; Russian and English forms match (full-text, stemmed); "quoted phrase", -excluded',
    ),
  status: z.enum(CHAT_STATUSES, M.valueIncorrect).optional().describe('Only messages of chats in this state'),
  from: z.iso.datetime({ offset: true, error: M.incorrectValue }).optional().describe('Sent at or after'),
  to: z.iso.datetime({ offset: true, error: M.incorrectValue }).optional().describe('Sent before'),
  limit: queryInt(1, 100, 30),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** A piece of a found message's text; `match` marks the words that matched the query. */
export type SnippetPart = { text: string; match: boolean };
export type MessageHitDto = {
  id: string;
  chatId: string;
  direction: 'in' | 'out';
  internal: boolean;
  createdAt: string;
  author: Ref | null;
  snippet: SnippetPart[];
  chat: {
    id: string;
    status: ChatStatus;
    channel: Ref & { type: ChannelType };
    team: Ref;
    operator: Ref | null;
    client: Ref;
  };
};
export type MessageSearchPage = { items: MessageHitDto[]; nextCursor: string | null };

/** `POST /api/chats`: start a dialog with a known client on one of their channels (create-chat page). */
export const createChatSchema = z.object({
  clientId: z.uuid(M.requiredFields),
  channelId: z.uuid(M.requiredFields),
  text: text.refine((v) => v.trim() !== '', M.requiredFields),
});
