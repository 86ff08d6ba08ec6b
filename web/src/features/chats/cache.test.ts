import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatDto, MessageDto } from '@smartconnect/contracts';
import { QueryClient } from '@tanstack/react-query';
import type { ChatList } from './api.ts';
import { applyChatEvent } from './cache.ts';
import type { MessagePages } from './conversation/use-messages.ts';

const chat = (id: string, over: Partial<ChatDto> = {}): ChatDto =>
  ({
    id,
    status: 'waiting',
    channel: { id: 'ch', name: 'API', type: 'api', templates: false },
    team: { id: 't', name: 'Sales' },
    operator: null,
    client: { id: 'c', name: 'Jane', externalId: 'x', personalManagerId: null },
    category: null,
    session: 1,
    overdueLevel: 'none',
    assignedAt: null,
    closedAt: null,
    lastClientMessageAt: null,
    lastOperatorMessageAt: null,
    lastMessage: { text: 'hi', at: '2026-01-01T00:00:00.000Z' },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  }) as ChatDto;

const message = (id: string, over: Partial<MessageDto> = {}): MessageDto => ({
  id,
  chatId: 'a',
  direction: 'in',
  kind: 'normal',
  internal: false,
  text: `text ${id}`,
  attachments: [],
  status: null,
  buttons: null,
  statusReason: null,
  author: null,
  bot: null,
  externalMessageId: null,
  editedAt: null,
  createdAt: '2026-01-01T00:01:00.000Z',
  ...over,
});

function client() {
  const c = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  c.setQueryData<ChatList>(['chats', 'waiting'], { items: [chat('a'), chat('b')], total: 2 });
  c.setQueryData<MessagePages>(['chat', 'a', 'messages'], {
    pages: [{ items: [message('m1')], total: 1, nextCursor: null }],
    pageParams: [null],
  });
  return c;
}

test('a new message joins the open conversation once and becomes the preview in the list', () => {
  const c = client();
  const m2 = message('m2', { text: 'where is my order?' });
  assert.equal(applyChatEvent(c, { id: '1', type: 'message.created', payload: m2 }), true);
  applyChatEvent(c, { id: '2', type: 'message.created', payload: m2 });
  const page = c.getQueryData<MessagePages>(['chat', 'a', 'messages'])?.pages[0];
  assert.deepEqual(
    page?.items.map((m) => m.id),
    ['m1', 'm2'],
  );
  const list = c.getQueryData<ChatList>(['chats', 'waiting']);
  assert.equal(list?.items[0].lastMessage?.text, 'where is my order?');
  assert.equal(list?.items[1].lastMessage?.text, 'hi');
});

test('an internal note does not become the preview; a status change replaces the message', () => {
  const c = client();
  applyChatEvent(c, {
    id: '1',
    type: 'message.created',
    payload: message('n', { internal: true, text: 'note' }),
  });
  assert.equal(c.getQueryData<ChatList>(['chats', 'waiting'])?.items[0].lastMessage?.text, 'hi');
  applyChatEvent(c, { id: '2', type: 'message.status', payload: message('m1', { status: 'delivered' }) });
  const page = c.getQueryData<MessagePages>(['chat', 'a', 'messages'])?.pages[0];
  assert.equal(page?.items[0].status, 'delivered');
  assert.equal(page?.items.length, 2);
});

test('a chat event updates the open chat and the rows; other events are not the chat domain', () => {
  const c = client();
  const taken = chat('b', { status: 'in_progress', operator: { id: 'u', name: 'Oleg' } });
  applyChatEvent(c, { id: '1', type: 'chat.assigned', payload: taken });
  assert.equal(c.getQueryData<ChatDto>(['chat', 'b'])?.status, 'in_progress');
  assert.equal(c.getQueryData<ChatList>(['chats', 'waiting'])?.items[1].operator?.name, 'Oleg');
  assert.equal(applyChatEvent(c, { id: '2', type: 'presence.changed', payload: {} }), false);
});
