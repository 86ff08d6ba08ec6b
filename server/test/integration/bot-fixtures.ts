import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestOrg, TestServer } from '../helpers.ts';

/** A bot node as the editor stores it, with `extra` fields over the empty defaults. */
export const botNode = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  root: false,
  title: '',
  position: { x: 0, y: 0 },
  reply: { text: '', fileId: null },
  buttons: [],
  triggers: [],
  intents: [],
  actions: [],
  ...extra,
});

/** A published bot (version 1) of the organisation, as the editor's publish stores it (inserted with SQL). */
export async function insertPublishedBot(
  s: TestServer,
  org: TestOrg,
  nodes: unknown[],
  defaultMessage = 'Sorry?',
): Promise<string> {
  const botId = randomUUID();
  const graph = JSON.stringify({ nodes });
  await s.db.query(
    `insert into chat_bots (id, organisation_id, name, default_message, draft, published_version, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 1, now(), now())`,
    [botId, org.id, `Bot ${botId.slice(0, 8)}`, defaultMessage, graph],
  );
  await s.db.query(
    `insert into chat_bot_versions (bot_id, version, organisation_id, graph, default_message, published_at)
     values ($1, 1, $2, $3, $4, now())`,
    [botId, org.id, graph, defaultMessage],
  );
  return botId;
}

/** A routing rule of the organisation sending every new chat into the bot. */
export async function ruleToBot(org: TestOrg, botId: string): Promise<void> {
  const rule = await org.admin.api.post('/api/routing-rules', {
    name: 'To the bot',
    conditions: { clients: 'any' },
    action: { type: 'chat_bot', botId },
  });
  assert.equal(rule.status, 200, JSON.stringify(rule.body));
}

/** A published bot and a routing rule sending every new chat into it. */
export async function publishedBotForNewChats(s: TestServer, org: TestOrg, nodes: unknown[]) {
  const botId = await insertPublishedBot(s, org, nodes);
  await ruleToBot(org, botId);
  return botId;
}
