import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { BOT_INTENTS } from './routing-rules.ts';

/**
 * Chat bots (§3 Chat bot, §5 Chat bot, §9 Node; issue 18). A bot is a graph of nodes drawn in the editor. The
 * editor autosaves the draft (which may be unfinished); publishing validates the draft's structure (§8 Chatbot
 * structure) and freezes it as a numbered version. Chats already in a bot finish on the version they started.
 *
 * This file holds the shapes both sides share; the structure rules (§8) are checked by `chatBotStructureIssues`
 * (contracts/src/chat-bot-structure.ts) on the server and in the editor alike.
 */
export const CHAT_BOT_LIMITS = {
  nameMax: 255,
  descriptionMax: 1024,
  defaultMessageMax: 4096,
  replyTextMax: 4096,
  /** §9: buttons 10 by default, or the channel's own limit when lower. */
  buttonsMax: 10,
  /** Characters (code points) of a button's text. */
  buttonTextMax: 64,
  triggersMax: 10,
  intentsMax: 10,
  nodesMax: 500,
  /** Block ids are the editor's own (React Flow node ids). */
  blockIdMax: 64,
} as const;

/** §3 Final actions: what the bot does when the dialog reaches a node that ends it. */
export const BOT_FINAL_ACTIONS = [
  'close',
  'last_operator',
  'operator',
  'team',
  'personal_manager',
  'none',
] as const;
export type BotFinalActionType = (typeof BOT_FINAL_ACTIONS)[number];

const blockId = z
  .string(M.valueIncorrect)
  .min(1, M.valueIncorrect)
  .max(CHAT_BOT_LIMITS.blockIdMax, M.valueIncorrect);
/** A transition: the id of the node to go to, or null while the editor has not connected it yet. */
const next = blockId.nullable();

/**
 * A subscriber reply (§3 buttons): shown as a channel-native button; pressing it (or typing its text, or its number
 * where the channel has no buttons) follows `next`. A button with `url` opens that address through the tracked
 * `/bot-action/{uuid}` link instead, and has no transition. `voip` (§5 Node 'VOIP button value'): the key of the phone's
 * keypad (0-9, # or *) that chooses the button when the subscriber answers by voice (VOIP); the structure check
 * refuses any other value (§8 'invalid VOIP button'). A typed key chooses the button on any channel too.
 */
export const botButtonSchema = z.object({
  id: blockId,
  text: z.string(M.valueIncorrect).max(200, M.valueIncorrect),
  next: next.default(null),
  url: z.string(M.valueIncorrect).max(2048, M.valueIncorrect).optional(),
  voip: z.string(M.valueIncorrect).max(16, M.valueIncorrect).optional(),
});
export type BotButton = z.output<typeof botButtonSchema>;

/** §3 triggers: while the local time in `timeZone` is within [start, end) the dialog goes on to `next`. */
export const botTriggerSchema = z.object({
  id: blockId,
  /** HH:MM, 24-hour. An `end` earlier than `start` spans midnight. */
  start: z.string(M.timeIncorrect).max(5, M.timeIncorrect),
  end: z.string(M.timeIncorrect).max(5, M.timeIncorrect),
  /** An IANA zone, e.g. Europe/Moscow. */
  timeZone: z.string(M.valueIncorrect).max(64, M.valueIncorrect),
  next: next.default(null),
});
export type BotTrigger = z.output<typeof botTriggerSchema>;

/** §3 intents: when the subscriber's text is recognised as `intent` the dialog goes on to `next`. */
export const botIntentRouteSchema = z.object({
  id: blockId,
  /** Null until chosen in the editor (publishing refuses it: 'an intent must be chosen'). */
  intent: z.enum(BOT_INTENTS, M.valueIncorrect).nullable(),
  next: next.default(null),
});
export type BotIntentRoute = z.output<typeof botIntentRouteSchema>;

/**
 * A node's actions. `default`: where the dialog goes when the subscriber's answer matches no button or intent (or,
 * on a node with no buttons, right after the reply); one per node. `final`: the bot's work ends with this action
 * (§3 Final actions); `operatorId` for 'operator', `teamId` for 'team'.
 */
export const botActionSchema = z.discriminatedUnion('kind', [
  z.object({ id: blockId, kind: z.literal('default'), next: next.default(null) }),
  z.object({
    id: blockId,
    kind: z.literal('final'),
    type: z.enum(BOT_FINAL_ACTIONS, M.valueIncorrect),
    operatorId: z.uuid(M.valueIncorrect).nullable().optional(),
    teamId: z.uuid(M.teamIncorrect).nullable().optional(),
  }),
]);
export type BotAction = z.output<typeof botActionSchema>;

/** A stored file's key: POST /api/files answers it as the last part of the attachment's url (/api/files/{key}). */
export const FILE_KEY = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * The bot's reply in a node: text, a file, or both (the text is the file's caption). `fileId` is the uploaded file's
 * key (the editor uploads through POST /api/files, like the composer), `fileName` its name as shown in the editor and
 * sent with the attachment.
 */
export const botReplySchema = z.object({
  text: z.string(M.valueIncorrect).max(CHAT_BOT_LIMITS.replyTextMax, M.valueIncorrect).default(''),
  fileId: z.string(M.valueIncorrect).regex(FILE_KEY, M.valueIncorrect).nullable().default(null),
  fileName: z.string(M.valueIncorrect).max(255, M.valueIncorrect).optional(),
});
export type BotReply = z.output<typeof botReplySchema>;

export const botNodeSchema = z.object({
  id: blockId,
  /** Exactly one node is the root: the dialog starts there (§8 'multiple root nodes', not found 'rootBlock'). */
  root: z.boolean(M.valueIncorrect).default(false),
  title: z.string(M.valueIncorrect).max(255, M.valueIncorrect).default(''),
  position: z.object({ x: z.number(M.valueIncorrect), y: z.number(M.valueIncorrect) }),
  reply: botReplySchema,
  buttons: z.array(botButtonSchema, M.valueIncorrect).max(100, M.valueIncorrect).default([]),
  triggers: z.array(botTriggerSchema, M.valueIncorrect).max(100, M.valueIncorrect).default([]),
  intents: z.array(botIntentRouteSchema, M.valueIncorrect).max(100, M.valueIncorrect).default([]),
  actions: z.array(botActionSchema, M.valueIncorrect).max(100, M.valueIncorrect).default([]),
});
export type BotNode = z.output<typeof botNodeSchema>;

/**
 * The drawn scenario. Shapes are checked here (so any draft can be stored and reopened); the §8 structure rules are
 * checked on publish and shown on the nodes they concern.
 */
export const botGraphSchema = z.object({
  nodes: z.array(botNodeSchema, M.valueIncorrect).max(CHAT_BOT_LIMITS.nodesMax, M.valueIncorrect),
});
export type BotGraph = z.output<typeof botGraphSchema>;

const botName = z
  .string(M.nameIncorrect)
  .trim()
  .min(1, M.nameIncorrect)
  .max(CHAT_BOT_LIMITS.nameMax, M.nameTooLong);
const botDescription = z
  .string(M.descriptionIncorrect)
  .trim()
  .max(CHAT_BOT_LIMITS.descriptionMax, M.descriptionIncorrect);
/** §5: the default message (sent when the bot does not understand) is not empty. */
const botDefaultMessage = z
  .string(M.requiredFields)
  .trim()
  .min(1, M.requiredFields)
  .max(CHAT_BOT_LIMITS.defaultMessageMax, M.valueIncorrect);

export const chatBotCreateSchema = z.object({
  name: botName,
  description: botDescription.default(''),
  defaultMessage: botDefaultMessage,
});
/** The editor's autosave: any subset; `draft` replaces the whole draft graph. */
export const chatBotUpdateSchema = z.object({
  name: botName.optional(),
  description: botDescription.optional(),
  defaultMessage: botDefaultMessage.optional(),
  draft: botGraphSchema.optional(),
});

/** §8 Chatbot structure errors, one code each; an issue names the node (and the element) it concerns. */
export const BOT_STRUCTURE_ERRORS = [
  'blockIdNotUnique',
  'multipleRootNodes',
  'rootBlockNotFound',
  'duplicateSubscriberReply',
  'botActionWithSubscriberReply',
  'triggersWithOtherActions',
  'loopedTriggers',
  'emptyScenario',
  'multipleDefaultActions',
  'emptyActionValue',
  'tooManyButtons',
  'buttonTextTooLong',
  'emptyButtonName',
  'emptyDefaultMessage',
  'invalidVoipButton',
  'tooManyTriggers',
  'tooManyIntents',
  'intentNotChosen',
  'triggerTimeIncorrect',
  'unknownTransition',
] as const;
export type BotStructureError = (typeof BOT_STRUCTURE_ERRORS)[number];
export type BotStructureIssue = {
  code: BotStructureError;
  /** The node concerned (absent for whole-bot issues such as an empty scenario). */
  nodeId?: string;
  /** The button, trigger, intent or action concerned. */
  elementId?: string;
};

export type ChatBotSummaryDto = {
  id: string;
  name: string;
  description: string;
  /** The published version's number; null while never published. */
  publishedVersion: number | null;
  /** The draft differs from the published version. */
  hasUnpublishedChanges: boolean;
  updatedAt: string;
};
export type ChatBotDto = ChatBotSummaryDto & {
  defaultMessage: string;
  draft: BotGraph;
  published: BotGraph | null;
};

/** A published bot an operator may transfer a chat to (§4 transfer to a chat bot). */
export type ChatBotRefDto = { id: string; name: string };

/** Response schemas (OpenAPI). */
const at = z.iso.datetime();
export const chatBotSummaryDto = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  publishedVersion: z.number().int().nullable(),
  hasUnpublishedChanges: z.boolean(),
  updatedAt: at,
});
export const chatBotDto = chatBotSummaryDto.extend({
  defaultMessage: z.string(),
  draft: botGraphSchema,
  published: botGraphSchema.nullable(),
});
export const chatBotRefDto = z.object({ id: z.uuid(), name: z.string() });
