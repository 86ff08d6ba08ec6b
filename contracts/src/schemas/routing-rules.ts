import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** Routing rules (§3 Routing rule, §5 Rule, §8 rules): which new chats go where, tried in priority order. */
export const RULE_CLIENTS = ['any', 'new', 'repeated'] as const;
export type RuleClients = (typeof RULE_CLIENTS)[number];
/** 'client': the client's message opened the chat; 'mailing': our outbound message did (the create-chat page). */
export const RULE_MESSAGE_TYPES = ['client', 'mailing'] as const;
export type RuleMessageType = (typeof RULE_MESSAGE_TYPES)[number];
export const RULE_MARKETING_TYPES = ['service', 'advertising'] as const;
export type RuleMarketingType = (typeof RULE_MARKETING_TYPES)[number];
/** 'close': the rule closes the chat (§4 'closed by ... a rule'); the close history entry names the rule. */
export const RULE_ACTIONS = ['last_operator', 'team', 'chat_bot', 'personal_manager', 'close'] as const;
export type RuleActionType = (typeof RULE_ACTIONS)[number];
/** The chat-bot intents of §3 (a bot names the chat's intent; rules include or exclude them). */
export const BOT_INTENTS = ['GREETING', 'GOODBYE', 'HELP', 'BOT_CONFUSED', 'ESCALATE_TO_AGENT'] as const;
export type BotIntent = (typeof BOT_INTENTS)[number];

export const RULE_NAME_MAX = 255;

const intents = z
  .array(z.enum(BOT_INTENTS, M.valueIncorrect), M.valueIncorrect)
  .max(BOT_INTENTS.length, M.valueIncorrect);

export const ruleConditionsSchema = z.object({
  clients: z.enum(RULE_CLIENTS, M.valueIncorrect).default('any'),
  /** Empty or absent: every channel. */
  channelIds: z.array(z.uuid(M.valueIncorrect), M.valueIncorrect).max(100, M.valueIncorrect).optional(),
  /** Absent: 'client'. */
  messageType: z.enum(RULE_MESSAGE_TYPES, M.valueIncorrect).optional(),
  marketingType: z.enum(RULE_MARKETING_TYPES, M.valueIncorrect).optional(),
  intentsInclude: intents.optional(),
  intentsExclude: intents.optional(),
});
export type RuleConditions = z.output<typeof ruleConditionsSchema>;

export const ruleActionSchema = z
  .object({
    type: z.enum(RULE_ACTIONS, M.valueIncorrect),
    teamId: z.uuid(M.teamIncorrect).optional(),
    botId: z.uuid(M.valueIncorrect).optional(),
  })
  .superRefine((a, ctx) => {
    if (a.type === 'team' && !a.teamId)
      ctx.addIssue({ code: 'custom', path: ['teamId'], message: M.teamIncorrect });
    if (a.type === 'chat_bot' && !a.botId)
      ctx.addIssue({ code: 'custom', path: ['botId'], message: M.valueIncorrect });
  })
  // Only the id the action's type uses is kept.
  .transform((a) => ({
    type: a.type,
    ...(a.type === 'team' ? { teamId: a.teamId } : {}),
    ...(a.type === 'chat_bot' ? { botId: a.botId } : {}),
  }));
export type RuleAction = { type: RuleActionType; teamId?: string; botId?: string };

const ruleName = z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(RULE_NAME_MAX, M.nameIncorrect);

export const routingRuleCreateSchema = z.object({
  name: ruleName,
  conditions: ruleConditionsSchema,
  action: ruleActionSchema,
  enabled: z.boolean(M.valueIncorrect).default(true),
  /** 1-based place among the rules (1 is tried first); absent: last before the default rule. */
  priority: z.number(M.valueIncorrect).int(M.valueIncorrect).min(1, M.valueIncorrect).optional(),
});
export const routingRuleUpdateSchema = z.object({
  name: ruleName.optional(),
  conditions: ruleConditionsSchema.optional(),
  action: ruleActionSchema.optional(),
  enabled: z.boolean(M.valueIncorrect).optional(),
});
/** The new order of the rules: every rule's id but the default rule's, first tried first. */
export const routingRuleOrderSchema = z.object({
  ids: z.array(z.uuid(M.valueIncorrect), M.valueIncorrect).max(1000, M.valueIncorrect),
});

export type RoutingRuleDto = {
  id: string;
  name: string;
  conditions: {
    clients: RuleClients;
    channelIds: string[];
    messageType: RuleMessageType;
    marketingType: RuleMarketingType | null;
    intentsInclude: BotIntent[];
    intentsExclude: BotIntent[];
  };
  /** The default rule's action is `team` without a teamId: the chat stays in its channel's team. */
  action: { type: RuleActionType; teamId: string | null; botId: string | null };
  enabled: boolean;
  /** The default rule: lowest priority, listed last, cannot be updated or deleted. */
  isDefault: boolean;
  /** 1-based place in the order (the default rule is last). */
  priority: number;
  createdAt: string;
  updatedAt: string;
};

export const routingRuleDto = z.object({
  id: z.uuid(),
  name: z.string(),
  conditions: z.object({
    clients: z.enum(RULE_CLIENTS),
    channelIds: z.array(z.uuid()),
    messageType: z.enum(RULE_MESSAGE_TYPES),
    marketingType: z.enum(RULE_MARKETING_TYPES).nullable(),
    intentsInclude: z.array(z.enum(BOT_INTENTS)),
    intentsExclude: z.array(z.enum(BOT_INTENTS)),
  }),
  action: z.object({
    type: z.enum(RULE_ACTIONS),
    teamId: z.uuid().nullable(),
    botId: z.uuid().nullable(),
  }),
  enabled: z.boolean(),
  isDefault: z.boolean(),
  priority: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type RoutingRuleDtoCheck =
  Same<z.infer<typeof routingRuleDto>, RoutingRuleDto> extends true ? true : never;
const _check: RoutingRuleDtoCheck = true;
void _check;
