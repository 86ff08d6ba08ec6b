import {
  FIELD_MESSAGES as M,
  type RuleAction,
  type routingRuleCreateSchema,
  type routingRuleOrderSchema,
  type routingRuleUpdateSchema,
} from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { forgetInboundChannels } from '../channels/service.ts';
import { botExists } from '../chat-bots/service.ts';
import { setAutomationNeed } from '../organisations/automation.ts';
import { teamInOrg } from '../teams/readers.ts';
import { conditionsKey, normaliseConditions, type StoredConditions } from './conditions.ts';
import { presentRules } from './presenter.ts';
import * as Q from './queries.ts';

/** Creates the organisation's default rule (lowest priority, to the channel's team); call where organisations are made. */
export const createDefaultRule = (q: Queryable, orgId: string) => Q.insertDefaultRule(q, orgId);

/** The organisation's rules in the order they are tried, the default rule last. */
export async function listRules(app: AppContext, auth: AuthContext) {
  return presentRules(await Q.listRules(app.db, auth.organisationId));
}

async function presentOne(q: Queryable, orgId: string, id: string) {
  const all = presentRules(await Q.listRules(q, orgId));
  const rule = all.find((r) => r.id === id);
  if (!rule) throw new AppError('ruleNotFoundException');
  return rule;
}

/**
 * The values a rule names must exist in the organisation: its channels, the action's team, the action's chat bot
 * (§8 'invalid action or condition value'). The bot is locked in share mode so it cannot be deleted meanwhile.
 */
async function checkValues(q: Queryable, orgId: string, c: StoredConditions, a: RuleAction) {
  const fields: Record<string, string> = {};
  if (c.channelIds.length && (await Q.countChannelsInOrg(q, orgId, c.channelIds)) !== c.channelIds.length)
    fields['conditions.channelIds'] = M.valueIncorrect;
  if (a.type === 'team' && (!a.teamId || !(await teamInOrg(q, orgId, a.teamId))))
    fields['action.teamId'] = M.teamIncorrect;
  if (a.type === 'chat_bot' && (!a.botId || !(await botExists(q, orgId, a.botId))))
    fields['action.botId'] = M.valueIncorrect;
  if (Object.keys(fields).length) throw new AppError('invalidRuleValueException', fields);
}

async function checkUnique(q: Queryable, orgId: string, key: string, exceptId: string | null) {
  if (await Q.conditionsTaken(q, orgId, key, exceptId))
    throw new AppError('routingRuleAlreadyExistsException');
}

/** Two rules saved at once with the same conditions: the unique index decides, and the loser hears §8's code. */
async function unique<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new AppError('routingRuleAlreadyExistsException');
    throw err;
  }
}

/**
 * Replies to mailings, and the later messages of chats a rule sent to a chat bot, reach the pipeline only while some
 * enabled rule needs them (organisation_automation).
 */
const syncAutomation = async (q: Queryable, orgId: string) =>
  setAutomationNeed(q, orgId, 'routing_rules', await Q.hasMailingRules(q, orgId));

/** Adds a rule at `priority` (1 is tried first; absent or past the end: last before the default rule). */
export async function createRule(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof routingRuleCreateSchema>,
) {
  const orgId = auth.organisationId;
  const rule = await unique(
    app.db.tx(async (q) => {
      const conditions = normaliseConditions(input.conditions);
      const key = conditionsKey(conditions);
      await checkValues(q, orgId, conditions, input.action);
      const existing = (await Q.lockRules(q, orgId)).filter((r) => !r.is_default);
      await checkUnique(q, orgId, key, null);
      const position = Math.min(input.priority ?? existing.length + 1, existing.length + 1);
      // Positions are made dense first, so "position >= n" shifts exactly the rules from place n on.
      await Q.setOrder(
        q,
        orgId,
        existing.map((r) => r.id),
        app.clock.now(),
      );
      const id = await Q.insertRule(q, {
        orgId,
        name: input.name,
        conditions,
        key,
        action: input.action,
        enabled: input.enabled,
        position,
      });
      await syncAutomation(q, orgId);
      return presentOne(q, orgId, id);
    }),
  );
  // The ingest reads the organisation's automation flag with the channel: read it afresh on this instance.
  forgetInboundChannels(app);
  return rule;
}

async function mutable(q: Queryable, orgId: string, id: string) {
  const rule = await Q.findRule(q, orgId, id);
  if (!rule) throw new AppError('ruleNotFoundException');
  if (rule.is_default) throw new AppError('defaultRuleUpdateException');
  return rule;
}

/** Changes a rule's name, conditions, action or enabled flag; the default rule cannot be updated (§8). */
export async function updateRule(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof routingRuleUpdateSchema>,
) {
  const orgId = auth.organisationId;
  const updated = await unique(
    app.db.tx(async (q) => {
      const rule = await mutable(q, orgId, id);
      const conditions = input.conditions ? normaliseConditions(input.conditions) : rule.conditions;
      const action = input.action ?? rule.action;
      const key = conditionsKey(conditions);
      if (input.conditions || input.action) await checkValues(q, orgId, conditions, action);
      await checkUnique(q, orgId, key, id);
      await Q.updateRule(q, orgId, id, {
        name: input.name ?? rule.name,
        conditions,
        key,
        action,
        enabled: input.enabled ?? rule.enabled,
        now: app.clock.now(),
      });
      await syncAutomation(q, orgId);
      return presentOne(q, orgId, id);
    }),
  );
  forgetInboundChannels(app);
  return updated;
}

/** Deletes a rule (the default rule cannot be); the chats' history keeps the rule's name. */
export async function deleteRule(app: AppContext, auth: AuthContext, id: string) {
  const orgId = auth.organisationId;
  await app.db.tx(async (q) => {
    await Q.lockRules(q, orgId);
    await mutable(q, orgId, id);
    await Q.deleteRule(q, orgId, id);
    await syncAutomation(q, orgId);
  });
  forgetInboundChannels(app);
}

/**
 * Puts the rules in the given order (first tried first). `ids` names every rule of the organisation but the
 * default one, each once (the default rule may be named last; it stays last); anything else is a field error.
 */
export async function reorderRules(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof routingRuleOrderSchema>,
) {
  const orgId = auth.organisationId;
  return app.db.tx(async (q) => {
    const rules = await Q.lockRules(q, orgId);
    const defaultId = rules.find((r) => r.is_default)?.id;
    const ids = input.ids.at(-1) === defaultId ? input.ids.slice(0, -1) : input.ids;
    const own = new Set(rules.filter((r) => !r.is_default).map((r) => r.id));
    if (ids.length !== own.size || new Set(ids).size !== ids.length || !ids.every((i) => own.has(i)))
      throw new AppError('validationException', { ids: M.valueIncorrect });
    await Q.setOrder(q, orgId, ids, app.clock.now());
    return presentRules(await Q.listRules(q, orgId));
  });
}
