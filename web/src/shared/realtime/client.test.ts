import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  backoffMs,
  RealtimeClient,
  type RealtimeEvent,
  setActiveRealtime,
  subscribeTopic,
} from './client.ts';

type FakeSocket = {
  url: string;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  closed: number | null;
  sent: string[];
  close(code?: number): void;
  send(data: string): void;
};

function setup(initialToken: string | null = 't0k') {
  let token = initialToken;
  const sockets: FakeSocket[] = [];
  const timers: (() => void)[] = [];
  const delays: number[] = [];
  const events: RealtimeEvent[] = [];
  let resyncs = 0;
  let unauthorized = 0;
  let probes = 0;
  const client = new RealtimeClient({
    token: () => token,
    origin: 'ws://host',
    onEvent: (e) => events.push(e),
    onResync: () => resyncs++,
    onUnauthorized: () => unauthorized++,
    probe: async () => {
      probes++;
    },
    createSocket: (url) => {
      const s: FakeSocket = {
        url,
        onopen: null,
        onmessage: null,
        onclose: null,
        onerror: null,
        closed: null,
        sent: [],
        close(code) {
          this.closed = code ?? 1000;
        },
        send(data) {
          this.sent.push(data);
        },
      };
      sockets.push(s);
      return s;
    },
    setTimer: (fn, ms) => {
      timers.push(fn);
      delays.push(ms);
    },
    clearTimer: () => {},
    random: () => 0.5,
  });
  const frame = (s: FakeSocket, f: unknown) => s.onmessage?.({ data: JSON.stringify(f) });
  return {
    client,
    sockets,
    timers,
    delays,
    events,
    frame,
    setToken: (next: string) => {
      token = next;
    },
    counts: () => ({ resyncs, unauthorized, probes }),
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

test('backoff doubles from 0.5 s up to 30 s', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 10].map((n) => backoffMs(n, () => 0.5)),
    [500, 1000, 2000, 4000, 30000],
  );
});

test('no token, no socket', () => {
  const t = setup(null);
  t.client.start();
  assert.equal(t.sockets.length, 0);
});

test('keeps the last id and resumes from it after a drop; events reach the handler in order', () => {
  const t = setup();
  t.client.start();
  const [s1] = t.sockets;
  assert.equal(s1.url, 'ws://host/api/realtime?token=t0k');
  s1.onopen?.({});
  t.frame(s1, { id: '10', type: 'hello', payload: { resumed: false } });
  t.frame(s1, { id: '12', type: 'message.created', payload: { id: 'm1' } });
  t.frame(s1, { id: '15', type: 'counters.changed', payload: {} });
  assert.deepEqual(
    t.events.map((e) => e.id),
    ['12', '15'],
  );
  s1.onclose?.({ code: 1006 });
  assert.equal(t.timers.length, 1);
  t.timers[0]();
  assert.equal(t.sockets[1].url, 'ws://host/api/realtime?token=t0k&lastEventId=15');
  t.sockets[1].onopen?.({});
  t.frame(t.sockets[1], { id: '15', type: 'hello', payload: { resumed: true } });
  assert.equal(t.counts().resyncs, 0);
});

test('a resync frame refetches and becomes the new cursor', () => {
  const t = setup();
  t.client.start();
  const [s] = t.sockets;
  s.onopen?.({});
  t.frame(s, { id: '3', type: 'hello', payload: { resumed: true } });
  t.frame(s, { id: '900', type: 'resync', payload: { reason: 'expired' } });
  assert.equal(t.counts().resyncs, 1);
  assert.equal(t.client.lastEventId, '900');
  assert.equal(t.events.length, 0);
});

test('close code 1012 (the instance restarts): back within the jitter, not the backoff, resuming', () => {
  const t = setup();
  t.client.start();
  t.sockets[0].onopen?.({});
  t.frame(t.sockets[0], { id: '7', type: 'hello', payload: { resumed: false } });
  // Two drops in a row first: the backoff has grown to 1 s.
  t.sockets[0].onclose?.({ code: 1006 });
  t.timers[0]();
  t.sockets[1].onopen?.({});
  t.sockets[1].onclose?.({ code: 1006 });
  assert.deepEqual(t.delays, [500, 1000]);
  t.timers[1]();
  t.sockets[2].onopen?.({});
  t.sockets[2].onclose?.({ code: 1012 });
  // random() is 0.5: half of the 1 s jitter, and no HTTP probe first.
  assert.equal(t.delays[2], 500);
  t.timers[2]();
  assert.equal(t.sockets[3].url, 'ws://host/api/realtime?token=t0k&lastEventId=7');
  assert.equal(t.counts().probes, 0);
  // The backoff starts again from its first step after a restart.
  t.sockets[3].onopen?.({});
  t.sockets[3].onclose?.({ code: 1006 });
  assert.equal(t.delays[3], 500);
});

test('close code 4001 signs out and never reconnects', () => {
  const t = setup();
  t.client.start();
  t.sockets[0].onopen?.({});
  t.sockets[0].onclose?.({ code: 4001 });
  assert.equal(t.counts().unauthorized, 1);
  assert.equal(t.timers.length, 0);
});

test('close code 4001 with a newer token in the tab (a password change): back at once on it, resuming', () => {
  const t = setup();
  t.client.start();
  t.sockets[0].onopen?.({});
  t.frame(t.sockets[0], { id: '7', type: 'hello', payload: {} });
  t.setToken('n3w');
  t.sockets[0].onclose?.({ code: 4001 });
  assert.equal(t.counts().unauthorized, 0);
  assert.equal(t.sockets.length, 2);
  assert.match(t.sockets[1].url, /token=n3w/);
  assert.match(t.sockets[1].url, /lastEventId=7/);
  // The new token ended too: signed out.
  t.sockets[1].onopen?.({});
  t.sockets[1].onclose?.({ code: 4001 });
  assert.equal(t.counts().unauthorized, 1);
});

test('a refused upgrade probes over HTTP (whose 401 logs out) before retrying', async () => {
  const t = setup();
  t.client.start();
  t.sockets[0].onclose?.({ code: 1006 });
  assert.equal(t.counts().probes, 1);
  await flush();
  assert.equal(t.timers.length, 1);
});

test('stop closes the socket, forgets the cursor and cancels reconnects', () => {
  const t = setup();
  t.client.start();
  const [s] = t.sockets;
  s.onopen?.({});
  t.frame(s, { id: '7', type: 'hello', payload: {} });
  t.client.stop();
  assert.equal(s.closed, 1000);
  assert.equal(t.client.lastEventId, null);
  assert.equal(t.timers.length, 0);
});

test('topics: a subscription made before the socket is up is sent after hello, again after a reconnect', () => {
  const { client, sockets, timers, frame } = setup();
  setActiveRealtime(client);
  const got: unknown[] = [];
  const stop = subscribeTopic('monitoring', { view: 'teams' }, (p) => got.push(p.data));
  client.start();
  const sub = JSON.stringify({ type: 'subscribe', topic: 'monitoring', params: { view: 'teams' } });
  assert.deepEqual(sockets[0].sent, []);
  sockets[0].onopen?.({});
  frame(sockets[0], { id: '5', type: 'hello', payload: { resumed: false } });
  assert.deepEqual(sockets[0].sent, [sub]);
  frame(sockets[0], { id: '', type: 'topic', payload: { topic: 'monitoring', data: { full: true } } });
  assert.deepEqual(got, [{ full: true }]);
  assert.equal(client.lastEventId, '5', 'topic frames do not move the cursor');
  sockets[0].onclose?.({ code: 1006 });
  timers.shift()?.();
  sockets[1].onopen?.({});
  frame(sockets[1], { id: '5', type: 'hello', payload: { resumed: true } });
  assert.deepEqual(sockets[1].sent, [sub]);
  stop();
  assert.deepEqual(sockets[1].sent, [sub, JSON.stringify({ type: 'unsubscribe', topic: 'monitoring' })]);
  setActiveRealtime(null);
});
