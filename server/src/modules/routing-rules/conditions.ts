import type {
  BotIntent,
  RoutingRuleDto,
  RuleConditions,
  RuleMarketingType,
  RuleMessageType,
} from '@smartconnect/contracts';

/** A rule's conditions as stored: every field present, lists sorted and without repeats. */
export type StoredConditions = RoutingRuleDto['conditions'];

const sorted = <T extends string>(xs: readonly T[] | undefined): T[] => [...new Set(xs ?? [])].sort();

/** The stored form of a rule's conditions: absent lists are empty, the message type is 'client' unless said. */
export function normaliseConditions(c: RuleConditions): StoredConditions {
  return {
    clients: c.clients,
    channelIds: sorted(c.channelIds),
    messageType: c.messageType ?? 'client',
    marketingType: c.marketingType ?? null,
    intentsInclude: sorted(c.intentsInclude),
    intentsExclude: sorted(c.intentsExclude),
  };
}

/** One canonical text per set of conditions: two rules with equal keys have the same conditions (§8). */
export const conditionsKey = (c: StoredConditions): string =>
  JSON.stringify([
    c.clients,
    c.channelIds,
    c.messageType,
    c.marketingType,
    c.intentsInclude,
    c.intentsExclude,
  ]);

/** What a rule is matched against: the chat that needs routing. */
export type ChatFacts = {
  channelId: string;
  /** The client had a chat before this one. */
  repeated: boolean;
  /** Who opened the chat: the client's message, or our outbound message (the create-chat page). */
  messageType: RuleMessageType;
  /** The marketing type of the mailing that opened the chat; null for a chat the client opened. */
  marketingType: RuleMarketingType | null;
  /** The intent a chat bot named for the chat; null while none did. */
  intent: BotIntent | null;
};

/**
 * Whether the rule's conditions hold for the chat. Each condition that is set must hold: the kind of client, one
 * of the channels, the message type, the marketing type, an included intent (so a chat without an intent never
 * matches a rule that includes some), and no excluded intent.
 */
export function matches(c: StoredConditions, f: ChatFacts): boolean {
  if (c.clients === 'new' && f.repeated) return false;
  if (c.clients === 'repeated' && !f.repeated) return false;
  if (c.channelIds.length && !c.channelIds.includes(f.channelId)) return false;
  if (c.messageType !== f.messageType) return false;
  if (c.marketingType && c.marketingType !== f.marketingType) return false;
  if (c.intentsInclude.length && (!f.intent || !c.intentsInclude.includes(f.intent))) return false;
  if (f.intent && c.intentsExclude.includes(f.intent)) return false;
  return true;
}
