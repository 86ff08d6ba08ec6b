import {
  type BotGraph,
  type BotStructureIssue,
  type ChatBotDto,
  type chatBotCreateSchema,
  chatBotStructureIssues,
  type chatBotUpdateSchema,
} from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { teamsInOrg } from '../teams/readers.ts';
import { presentBot, presentBotSummary } from './presenter.ts';
import * as Q from './queries.ts';

/** A new bot's draft: one root node, placed where the editor's canvas opens. */
export const starterGraph = (): BotGraph => ({
  nodes: [
    {
      id: 'start',
      root: true,
      title: '',
      position: { x: 0, y: 0 },
      reply: { text: '', fileId: null },
      buttons: [],
      triggers: [],
      intents: [],
      actions: [],
    },
  ],
});

/** §8 'chatbot name already exists': the unique index (case-insensitive, among bots not deleted) decides. */
async function uniqueName<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new AppError('chatBotNameExistsException');
    throw err;
  }
}

async function found(q: Queryable, orgId: string, id: string) {
  const row = await Q.findBot(q, orgId, id);
  if (!row) throw new AppError('chatBotNotFoundException');
  return row;
}

export async function listBots(app: AppContext, auth: AuthContext) {
  return (await Q.listBots(app.db, auth.organisationId)).map(presentBotSummary);
}

export async function getBot(app: AppContext, auth: AuthContext, id: string): Promise<ChatBotDto> {
  return presentBot(await found(app.db, auth.organisationId, id));
}

export async function createBot(
  app: AppContext,
  auth: AuthContext,
  input: z.output<typeof chatBotCreateSchema>,
) {
  const orgId = auth.organisationId;
  return uniqueName(
    app.db.tx(async (q) => {
      const id = await Q.insertBot(q, {
        orgId,
        name: input.name,
        description: input.description,
        defaultMessage: input.defaultMessage,
        draft: starterGraph(),
        now: app.clock.now(),
      });
      return presentBot(await found(q, orgId, id));
    }),
  );
}

/** The editor's autosave: the draft may be unfinished (its structure is checked on publish only). */
export async function updateBot(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: z.output<typeof chatBotUpdateSchema>,
) {
  const orgId = auth.organisationId;
  return uniqueName(
    app.db.tx(async (q) => {
      const bot = await found(q, orgId, id);
      await Q.updateBot(q, orgId, id, {
        name: input.name ?? bot.name,
        description: input.description ?? bot.description,
        defaultMessage: input.defaultMessage ?? bot.default_message,
        draft: input.draft ?? bot.draft,
        now: app.clock.now(),
      });
      return presentBot(await found(q, orgId, id));
    }),
  );
}

/**
 * The structure issues of a draft: the shared §8 rules (contracts' chatBotStructureIssues), plus what only the
 * server can know: a final action's team or operator must be one of the organisation's (else 'empty action value').
 */
async function structureIssues(q: Queryable, orgId: string, graph: BotGraph, defaultMessage: string) {
  const issues: BotStructureIssue[] = chatBotStructureIssues(graph, defaultMessage);
  const finals = graph.nodes.flatMap((n) =>
    n.actions.flatMap((a) => (a.kind === 'final' ? [{ node: n.id, action: a }] : [])),
  );
  const teamIds = finals.flatMap((f) =>
    f.action.type === 'team' && f.action.teamId ? [f.action.teamId] : [],
  );
  const userIds = finals.flatMap((f) =>
    f.action.type === 'operator' && f.action.operatorId ? [f.action.operatorId] : [],
  );
  const teams = teamIds.length ? await teamsInOrg(q, orgId, teamIds) : new Set<string>();
  const users = userIds.length ? await Q.usersInOrg(q, orgId, userIds) : new Set<string>();
  for (const { node, action } of finals) {
    if (action.type === 'team' && action.teamId && !teams.has(action.teamId))
      issues.push({ code: 'emptyActionValue', nodeId: node, elementId: action.id });
    if (action.type === 'operator' && action.operatorId && !users.has(action.operatorId))
      issues.push({ code: 'emptyActionValue', nodeId: node, elementId: action.id });
  }
  return issues;
}

/** Validates the draft's structure and freezes it as the next version (chats in the bot keep their version). */
export async function publishBot(app: AppContext, auth: AuthContext, id: string) {
  const orgId = auth.organisationId;
  return app.db.tx(async (q) => {
    if (!(await Q.lockBot(q, orgId, id))) throw new AppError('chatBotNotFoundException');
    const bot = await found(q, orgId, id);
    const issues = await structureIssues(q, orgId, bot.draft, bot.default_message);
    if (issues.length) throw new AppError('chatBotStructureException', undefined, { issues });
    await Q.publishVersion(q, {
      orgId,
      id,
      graph: bot.draft,
      defaultMessage: bot.default_message,
      userId: auth.userId,
      now: app.clock.now(),
    });
    return presentBot(await found(q, orgId, id));
  });
}

/** Deletes a bot no routing rule routes to (§8 'chatbot used by rules', naming them); its versions stay for chats. */
export async function deleteBot(app: AppContext, auth: AuthContext, id: string) {
  const orgId = auth.organisationId;
  await app.db.tx(async (q) => {
    if (!(await Q.lockBot(q, orgId, id))) throw new AppError('chatBotNotFoundException');
    const rules = await Q.rulesUsingBot(q, orgId, id);
    if (rules.length) throw new AppError('chatBotUsedByRulesException', undefined, { rules });
    await Q.softDeleteBot(q, orgId, id, app.clock.now());
  });
}

/** For routing rules: whether the id names a bot of the organisation (locked against deletion until commit). */
export const botExists = async (q: Queryable, orgId: string, id: string) =>
  !!(await Q.lockBot(q, orgId, id, 'share'));
