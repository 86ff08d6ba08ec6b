import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import type { MessageDto } from '@smartconnect/contracts';
import type { RealtimeEvent } from '../shared/realtime/client.ts';
import { ALERT_ICON, blinkTitle, DEFAULT_ICON, setPageTitle } from '../shared/title.ts';
import { isNewClientMessage, newMessageAlert } from './new-message-alert.ts';

const message = (over: Partial<MessageDto> = {}): RealtimeEvent => ({
  id: '1',
  type: 'message.created',
  payload: { id: 'm', chatId: 'c', direction: 'in', internal: false, text: 'hi', ...over },
});

function fakePage(hidden: boolean) {
  const listeners = new Set<() => void>();
  return {
    hidden,
    addEventListener: (_: string, fn: () => void) => void listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => void listeners.delete(fn),
    show() {
      this.hidden = false;
      for (const fn of listeners) fn();
    },
    listeners,
  };
}

function fakeDoc() {
  const link = { href: DEFAULT_ICON };
  return {
    title: '',
    link,
    querySelector: () => ({
      getAttribute: () => link.href,
      setAttribute: (_: string, v: string) => (link.href = v),
    }),
  } as unknown as Document & { link: { href: string } };
}

test('only a client message counts: not a reply, not an internal note, not another event', () => {
  assert.equal(isNewClientMessage(message()), true);
  assert.equal(isNewClientMessage(message({ direction: 'out' })), false);
  assert.equal(isNewClientMessage(message({ internal: true })), false);
  assert.equal(isNewClientMessage({ ...message(), type: 'message.updated' }), false);
  assert.equal(isNewClientMessage({ id: '2', type: 'chat.created', payload: {} }), false);
});

test('a visible tab does not blink; a hidden one blinks once per absence and stops when shown', () => {
  const page = fakePage(false);
  const stops: number[] = [];
  const started: string[] = [];
  const alert = newMessageAlert({
    title: () => 'New message!',
    page: page as unknown as Document,
    blink: (text) => {
      started.push(text);
      return () => stops.push(started.length);
    },
  });
  alert.onEvent(message());
  assert.deepEqual(started, []);

  page.hidden = true;
  alert.onEvent(message({ direction: 'out' }));
  assert.deepEqual(started, []);
  alert.onEvent(message());
  alert.onEvent(message());
  assert.deepEqual(started, ['New message!']);
  page.show();
  assert.deepEqual(stops, [1]);

  page.hidden = true;
  alert.onEvent(message());
  assert.equal(started.length, 2);
  alert.dispose();
  assert.deepEqual(stops, [1, 2]);
  assert.equal(page.listeners.size, 0);
});

test('with the real title: alternates every 1000 ms while hidden, back to the route title when shown', () => {
  mock.timers.enable({ apis: ['setInterval'] });
  const doc = fakeDoc();
  setPageTitle('Chat center', undefined, doc);
  const page = fakePage(true);
  const alert = newMessageAlert({
    title: () => 'New message!',
    page: page as unknown as Document,
    blink: (text) => blinkTitle(text, ALERT_ICON, doc, globalThis),
  });
  alert.onEvent(message());
  assert.equal(doc.title, 'New message!');
  assert.equal(doc.link.href, ALERT_ICON);
  mock.timers.tick(1000);
  assert.equal(doc.title, 'Chat center · SmartConnect');
  assert.equal(doc.link.href, DEFAULT_ICON);
  mock.timers.tick(1000);
  assert.equal(doc.title, 'New message!');
  page.show();
  assert.equal(doc.title, 'Chat center · SmartConnect');
  assert.equal(doc.link.href, DEFAULT_ICON);
  mock.timers.tick(3000);
  assert.equal(doc.title, 'Chat center · SmartConnect');
  alert.dispose();
  mock.timers.reset();
});
