import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RealtimeEvent } from '../shared/realtime/client.ts';
import {
  type Attention,
  attention,
  attentionOf,
  markNotificationsAsked,
  notificationsAsked,
  readAttentionPrefs,
  writeAttentionPrefs,
} from './attention.ts';

const message = (over: Record<string, unknown> = {}): RealtimeEvent => ({
  id: '1',
  type: 'message.created',
  payload: { id: 'm', chatId: 'c1', direction: 'in', internal: false, text: 'hello', ...over },
});
const chat = (type: RealtimeEvent['type'], over: Record<string, unknown> = {}): RealtimeEvent => ({
  id: '2',
  type,
  payload: {
    id: 'c2',
    status: 'waiting',
    operator: null,
    client: { id: 'k', name: 'Anna' },
    lastMessage: { text: 'first words', at: '' },
    ...over,
  },
});

function context(over: Partial<{ open: string | null; hidden: boolean; seesAll: boolean }> = {}) {
  const state = { open: over.open ?? null, hidden: over.hidden ?? false };
  const known: Record<
    string,
    { client: { id: string; name: string }; operator: { id: string; name: string } | null }
  > = {
    c1: { client: { id: 'k1', name: 'Boris' }, operator: { id: 'me', name: 'Me' } },
    c5: { client: { id: 'k5', name: 'Vera' }, operator: { id: 'other', name: 'Other' } },
  };
  return {
    state,
    ctx: {
      userId: 'me',
      openChatId: () => state.open,
      hidden: () => state.hidden,
      chatOf: (id: string) => known[id],
      seesAll: over.seesAll ?? false,
    },
  };
}

test('a client message, a new waiting chat and a chat given to me need attention; replies, notes and others do not', () => {
  const { ctx } = context();
  assert.deepEqual(attentionOf(message(), ctx), {
    chatId: 'c1',
    kind: 'message',
    client: 'Boris',
    text: 'hello',
  });
  assert.equal(attentionOf(message({ direction: 'out' }), ctx), null);
  assert.equal(attentionOf(message({ internal: true }), ctx), null);
  // Someone else's chat: not mine to notice. A chat the screens do not hold: noticed, unless the user sees all.
  assert.equal(attentionOf(message({ chatId: 'c5' }), ctx), null);
  assert.deepEqual(attentionOf(message({ chatId: 'c7' }), ctx), {
    chatId: 'c7',
    kind: 'message',
    client: null,
    text: 'hello',
  });
  assert.equal(attentionOf(message({ chatId: 'c7' }), context({ seesAll: true }).ctx), null);
  assert.ok(attentionOf(message(), context({ seesAll: true }).ctx));
  assert.deepEqual(attentionOf(chat('chat.created'), ctx), {
    chatId: 'c2',
    kind: 'newChat',
    client: 'Anna',
    text: 'first words',
  });
  const mine = { status: 'in_progress', operator: { id: 'me', name: 'Me' } };
  assert.equal(attentionOf(chat('chat.assigned', mine), ctx)?.kind, 'assigned');
  assert.equal(attentionOf(chat('chat.transferred', mine), ctx)?.kind, 'assigned');
  // Given to someone else, or a chat that is no longer new.
  assert.equal(
    attentionOf(chat('chat.assigned', { ...mine, operator: { id: 'other', name: 'O' } }), ctx),
    null,
  );
  assert.equal(attentionOf(chat('chat.created', { status: 'in_progress' }), ctx), null);
  assert.equal(attentionOf({ id: '3', type: 'counters.changed', payload: {} }, ctx), null);
});

test('nothing for the chat on the screen while the tab is visible; the same chat in a hidden tab does', () => {
  const { ctx, state } = context({ open: 'c1' });
  assert.equal(attentionOf(message(), ctx), null);
  assert.ok(attentionOf(message({ chatId: 'c9' }), ctx));
  state.hidden = true;
  assert.ok(attentionOf(message(), ctx));
});

test('a toast each time; sound and desktop only when asked, desktop only when hidden, once per chat per burst', () => {
  const { ctx, state } = context();
  const calls = { toast: [] as Attention[], sound: 0, desktop: 0 };
  let clock = 0;
  let prefs = { sound: false, desktop: false };
  const a = attention(ctx, {
    prefs: () => prefs,
    toast: (x) => calls.toast.push(x),
    sound: () => calls.sound++,
    desktop: () => calls.desktop++,
    now: () => clock,
  });
  a.onEvent(message());
  assert.deepEqual([calls.toast.length, calls.sound, calls.desktop], [1, 0, 0]);
  prefs = { sound: true, desktop: true };
  clock += 10_000;
  a.onEvent(message());
  // Visible tab: a sound, no desktop notification.
  assert.deepEqual([calls.toast.length, calls.sound, calls.desktop], [2, 1, 0]);
  // The same chat again at once: the toast is refreshed, no second sound.
  clock += 500;
  a.onEvent(message());
  assert.deepEqual([calls.toast.length, calls.sound, calls.desktop], [3, 1, 0]);
  state.hidden = true;
  clock += 10_000;
  a.onEvent(message());
  assert.deepEqual([calls.toast.length, calls.sound, calls.desktop], [4, 2, 1]);
  // Another chat is its own burst.
  a.onEvent(chat('chat.created'));
  assert.deepEqual([calls.toast.length, calls.sound, calls.desktop], [5, 3, 2]);
});

test('preferences are kept in the browser: sound on until turned off, desktop off until allowed', () => {
  const data = new Map<string, string>();
  const store = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => data.set(k, v),
  };
  assert.deepEqual(readAttentionPrefs(store), { sound: true, desktop: false });
  writeAttentionPrefs({ sound: false, desktop: true }, store);
  assert.deepEqual(readAttentionPrefs(store), { sound: false, desktop: true });
  data.set('sc-attention', '{not json');
  assert.deepEqual(readAttentionPrefs(store), { sound: true, desktop: false });
  assert.equal(notificationsAsked(store), false);
  markNotificationsAsked(store);
  assert.equal(notificationsAsked(store), true);
});
