import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { REALTIME_CLOSE, RECONNECT_JITTER_MS } from '@smartconnect/contracts/constants';
import { ChatApi, Live } from './api.ts';

/** A websocket that records itself and lets the test close it with a code. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send() {}
  close() {}
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const realWebSocket = globalThis.WebSocket;
beforeEach(() => {
  FakeSocket.made = [];
  (globalThis as { WebSocket: unknown }).WebSocket = FakeSocket;
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
});
afterEach(() => {
  mock.timers.reset();
  (globalThis as { WebSocket: unknown }).WebSocket = realWebSocket;
});

function live() {
  const api = new ChatApi('http://site.test', 'ch1');
  (api as unknown as { history: () => Promise<unknown> }).history = async () => ({ items: [] });
  const l = new Live(
    api,
    () => 'm7',
    () => undefined,
    () => undefined,
  );
  l.start();
  return l;
}

test('the widget, told the server restarts (1012), is back within the jitter, resuming from its last message', () => {
  const l = live();
  FakeSocket.made[0].open();
  // Two ordinary drops first: the pause grows (1 s, then 2 s).
  FakeSocket.made[0].drop(1006);
  mock.timers.tick(1000);
  assert.equal(FakeSocket.made.length, 2);
  FakeSocket.made[1].drop(1006);
  mock.timers.tick(1999);
  assert.equal(FakeSocket.made.length, 2, 'still waiting out the growing pause');
  mock.timers.tick(1);
  assert.equal(FakeSocket.made.length, 3);
  // This one lands on an instance that is draining: refused with 1012 before it opened (the pause would be 4 s now).
  FakeSocket.made[2].drop(REALTIME_CLOSE.serviceRestart);
  mock.timers.tick(RECONNECT_JITTER_MS);
  assert.equal(FakeSocket.made.length, 4, 'reconnected within the jitter');
  assert.match(FakeSocket.made[3].url, /^ws:\/\/site\.test\/api\/widget\/ch1\/ws\?after=m7$/);
  // And the pause starts again from its first step.
  FakeSocket.made[3].drop(1006);
  mock.timers.tick(1000);
  assert.equal(FakeSocket.made.length, 5);
  l.stop();
});
