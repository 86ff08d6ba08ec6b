import assert from 'node:assert/strict';
import type { ButtonRows } from '@smartconnect/contracts';
import { drainOutbox } from '../src/jobs/outbox.ts';
import { writeAutomatedMessage } from '../src/modules/conversation/send-message.ts';
import { withEvents } from '../src/realtime/emit.ts';
import type { TestOrg, TestServer } from './helpers.ts';

/**
 * The operator's side of a provider chat in the channel integration tests (one per provider: what came in, what
 * went out, the statuses the provider reported), read and written through the API as the organisation's admin.
 */

/** The chat's messages, as the admin reads them. */
export const messagesOf = async (org: TestOrg, chatId: string) =>
  (await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items;

/** The organisation's Waiting chats (a provider's first message opens one). */
export const chatsOf = async (org: TestOrg) =>
  (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items;

/** How long a status may take to show (the outbox and the provider's report on a loaded machine). */
const STATUS_WAIT_MS = 10_000;

/**
 * The admin takes the chat and answers it: `send` posts a message (its body as the API takes it) and runs the
 * outbox, so the adapter has called the provider when it answers the message's id; `byId` reads one message back;
 * `waitStatus` waits until a message shows the delivery status `want`, and asserts it does. `sendRateLimited`: the
 * provider is to refuse the next send for its rate limit; the message waits (Pending) and goes `retryMs` later.
 * `botWrites`: automation (a bot) writes a message with buttons into the chat, as the bot runtime does.
 */
export async function replyTo(s: TestServer, org: TestOrg, chatId: string) {
  assert.equal((await org.admin.api.post(`/api/chats/${chatId}/take`)).status, 200);
  const byId = async (id: string) => (await messagesOf(org, chatId)).find((m: { id: string }) => m.id === id);
  const waitStatus = async (id: string, want: string) => {
    const until = Date.now() + STATUS_WAIT_MS;
    while ((await byId(id)).status !== want && Date.now() < until)
      await new Promise((r) => setTimeout(r, 30));
    assert.equal((await byId(id)).status, want);
  };
  const send = async (body: Record<string, unknown>) => {
    const res = await org.admin.api.post(`/api/chats/${chatId}/messages`, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await drainOutbox(s.app);
    return res.body.entity.id as string;
  };
  const sendRateLimited = async (body: Record<string, unknown>, retryMs: number) => {
    const id = await send(body);
    assert.equal((await byId(id)).status, 'pending');
    s.clock.advance(retryMs);
    await drainOutbox(s.app);
    await waitStatus(id, 'sent');
    return id;
  };
  const botWrites = (text: string, buttons: ButtonRows) =>
    withEvents(s.app, (q, emit) =>
      writeAutomatedMessage(
        { q, emit, now: s.clock.now() },
        { kind: 'system', organisationId: org.id },
        chatId,
        { text, internal: false, attachments: [], buttons },
      ),
    );
  return { byId, waitStatus, send, sendRateLimited, botWrites };
}
