import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { authenticateToken } from '../../src/http/auth.ts';
import type { AppError } from '../../src/http/errors.ts';
import { type Actor, userActor } from '../../src/lib/actor.ts';
import { closeChat } from '../../src/modules/conversation/close-chat.ts';
import { presentMessage } from '../../src/modules/conversation/presenter.ts';
import { editMessage, sendMessage } from '../../src/modules/conversation/send-message.ts';
import { transferChat } from '../../src/modules/conversation/transfer-chat.ts';
import { createOrganisation, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

/** The commands called directly with automation actors (bot, rule, system), as the conversation pipeline does. */
describe('chat commands by actor', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const refusedWith = (code: string) => (e: unknown) => (e as AppError).code === code;
  const sessionOf = async (s: TestServer, user: TestUser) =>
    userActor(await authenticateToken(s.app, user.token));

  test('a system actor replies, transfers to a team and closes with a category; others are refused', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId], name: 'Olga' });
    await goOnline(op);
    // Its only member stays offline: a chat transferred there waits in the queue.
    const other = await org.user({ name: 'Oleg' });
    const queueTeam = await makeTeam(org, { memberIds: [other.id] });
    const ch = await makeChannel(org, teamId);
    const chatId: string = (await inbound(s, ch, { client: 'actor-client' })).body.entity.chatId;
    assert.equal((await chatOf(op, chatId)).operator.id, op.id);

    const system: Actor = { kind: 'system', organisationId: org.id };
    const sent = await sendMessage(s.app, system, chatId, {
      text: 'We are on it',
      internal: false,
      attachments: [],
    });
    assert.equal(sent.direction, 'out');
    assert.equal(sent.status, 'pending');
    assert.equal(sent.author_id, null);
    assert.equal(presentMessage(sent).author, null, 'automation is no user');
    const queued = await s.app.db.query('select 1 from outbox where message_id = $1', [sent.id]);
    assert.equal(queued.length, 1, 'the reply goes out through the outbox');
    const listed = (await op.api.get(`/api/chats/${chatId}/messages`)).body.entity.items;
    assert.deepEqual(
      listed.map((m: { text: string; author: unknown }) => [m.text, m.author]),
      [
        ['Hello', null],
        ['We are on it', null],
      ],
    );
    const afterReply = await chatOf(op, chatId);
    assert.equal(afterReply.lastMessage.text, 'We are on it');
    assert.equal(afterReply.lastOperatorMessageAt, null, "automation's reply is not the operator's answer");
    // Only a user edits, and only their own message (type level: editMessage takes a UserActor).
    await assert.rejects(
      editMessage(s.app, await sessionOf(s, op), chatId, sent.id, 'edited'),
      refusedWith('messageEditDeniedException'),
    );

    // Another organisation's automation finds no such chat.
    const foreign = await createOrganisation(s);
    for (const stranger of [
      { kind: 'system', organisationId: foreign.id },
      { kind: 'bot', botId: randomUUID(), organisationId: foreign.id },
    ] satisfies Actor[]) {
      await assert.rejects(
        sendMessage(s.app, stranger, chatId, { text: 'x', internal: false, attachments: [] }),
        refusedWith('chatNotFoundException'),
      );
      await assert.rejects(
        transferChat(s.app, stranger, chatId, { teamId: queueTeam }),
        refusedWith('chatNotFoundException'),
      );
      await assert.rejects(closeChat(s.app, stranger, chatId), refusedWith('chatNotFoundException'));
    }

    // A user without the right is still refused: another operator does not see the chat.
    const otherUser = await sessionOf(s, other);
    await assert.rejects(closeChat(s.app, otherUser, chatId), refusedWith('chatNotFoundException'));

    const rule: Actor = { kind: 'rule', ruleId: randomUUID(), organisationId: org.id };
    const moved = await transferChat(s.app, rule, chatId, { teamId: queueTeam });
    assert.equal(moved.status, 'waiting');
    assert.equal(moved.team_id, queueTeam);
    assert.equal(moved.operator_id, null);

    // Now it waits in Oleg's team: he sees it, but acting on it is the operator's (or AUTHORITY_ALL_CHATS).
    await assert.rejects(closeChat(s.app, otherUser, chatId), refusedWith('accessDeniedException'));
    await assert.rejects(
      sendMessage(s.app, otherUser, chatId, { text: 'x', internal: false, attachments: [] }),
      refusedWith('accessDeniedException'),
    );

    // The category rule holds for automation too (every organisation here has OPTION_CATEGORY).
    await assert.rejects(closeChat(s.app, system, chatId), refusedWith('closeWithoutCategoryException'));
    const sup = await org.user({ role: 'SUPERVISOR' });
    const categoryId: string = (await sup.api.post('/api/categories', { name: 'Handled by bot' })).body.entity
      .id;
    const closed = await closeChat(s.app, system, chatId, { categoryId });
    assert.equal(closed.status, 'closed');
    assert.equal(closed.category_id, categoryId);
    await assert.rejects(
      sendMessage(s.app, system, chatId, { text: 'late', internal: false, attachments: [] }),
      refusedWith('chatClosedException'),
    );

    const history = (await sup.api.get(`/api/chats/${chatId}/history`)).body.entity.items.map(
      (h: { kind: string; actorId: string | null; toTeamId: string | null; categoryId: string | null }) => [
        h.kind,
        h.actorId,
      ],
    );
    assert.deepEqual(history, [
      ['created', null],
      ['assign', null],
      ['transfer', null],
      ['category_set', null],
      ['close', null],
    ]);
  });

  test('without OPTION_CATEGORY automation closes without one, and cannot give one', async () => {
    const org = await createOrganisation(s, { options: [] });
    const teamId = await makeTeam(org);
    const ch = await makeChannel(org, teamId);
    const chatId: string = (await inbound(s, ch, { client: 'bare-client' })).body.entity.chatId;
    const bot: Actor = { kind: 'bot', botId: randomUUID(), organisationId: org.id };
    await assert.rejects(
      closeChat(s.app, bot, chatId, { categoryId: randomUUID() }),
      refusedWith('optionUnavailableException'),
    );
    const closed = await closeChat(s.app, bot, chatId);
    assert.equal(closed.status, 'closed');
  });
});
