import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localMinutes, startDialog, stepDialog, withinWindow } from './bot-engine.ts';
import { type BotGraph, botGraphSchema } from './schemas/chat-bots.ts';

const node = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  position: { x: 0, y: 0 },
  reply: { text: `reply ${id}` },
  ...extra,
});
const graph = (nodes: unknown[]): BotGraph => botGraphSchema.parse({ nodes });
const now = new Date('2026-01-05T10:00:00Z');

const bot = graph([
  node('a', {
    root: true,
    buttons: [
      { id: 'b1', text: 'Prices', next: 'p' },
      { id: 'b2', text: 'Talk to someone', next: 'h' },
      { id: 'b3', text: 'Site', url: 'https://example.com' },
    ],
    intents: [{ id: 'i1', intent: 'ESCALATE_TO_AGENT', next: 'h' }],
  }),
  node('p', { actions: [{ id: 'd', kind: 'default', next: 'end' }] }),
  node('end', { actions: [{ id: 'f', kind: 'final', type: 'none' }] }),
  node('h', {
    actions: [{ id: 'f2', kind: 'final', type: 'team', teamId: '00000000-0000-4000-8000-000000000001' }],
  }),
]);

test('start: the root replies with its buttons and waits', () => {
  const s = startDialog(bot, 'Sorry?', now);
  assert.deepEqual(s.path, ['a']);
  assert.equal(s.outputs[0].buttons.length, 3);
  assert.equal(s.state.nodeId, 'a');
  assert.equal(s.final, undefined);
});

test('a button by payload, by text and by number; defaults and final actions', () => {
  const s0 = startDialog(bot, 'Sorry?', now).state;
  for (const input of [{ payload: 'b1' }, { text: ' prices!' }, { text: '1' }]) {
    const s = stepDialog(bot, 'Sorry?', s0, input, now);
    assert.deepEqual(s.path, ['p', 'end'], JSON.stringify(input));
    assert.deepEqual(s.final, { type: 'none', operatorId: null, teamId: null });
    assert.deepEqual(
      s.outputs.map((o) => o.text),
      ['reply p', 'reply end'],
    );
  }
  const miss = stepDialog(bot, 'Sorry?', s0, { text: 'what about the weather' }, now);
  assert.equal(miss.outputs[0].text, 'Sorry?');
  assert.equal(miss.state.nodeId, 'a');
  const url = stepDialog(bot, 'Sorry?', s0, { text: '3' }, now);
  assert.equal(url.outputs[0].text, 'Sorry?');
});

test('an intent routes and is remembered', () => {
  const s0 = startDialog(bot, 'x', now).state;
  const s = stepDialog(bot, 'x', s0, { text: 'I want a human' }, now);
  assert.deepEqual(s.path, ['h']);
  assert.equal(s.final?.type, 'team');
  assert.equal(s.state.intent, 'ESCALATE_TO_AGENT');
});

test('triggers in their time zones; a window over midnight; no window holds: closed', () => {
  const g = graph([
    node('t', {
      root: true,
      reply: { text: '' },
      triggers: [
        { id: 'day', start: '09:00', end: '18:00', timeZone: 'Europe/Moscow', next: 'open' },
        { id: 'night', start: '22:00', end: '02:00', timeZone: 'America/New_York', next: 'night' },
      ],
    }),
    node('open', { actions: [{ id: 'f', kind: 'final', type: 'none' }] }),
    node('night', { actions: [{ id: 'f', kind: 'final', type: 'close' }] }),
  ]);
  // 10:00 UTC = 13:00 Moscow.
  assert.deepEqual(startDialog(g, 'x', now).path, ['t', 'open']);
  // 04:00 UTC = 07:00 Moscow, 23:00 New York (previous day).
  assert.deepEqual(startDialog(g, 'x', new Date('2026-01-05T04:00:00Z')).path, ['t', 'night']);
  // 12:00 Moscow-closed... 16:00 UTC = 19:00 Moscow, 11:00 New York: none holds.
  const none = startDialog(g, 'x', new Date('2026-01-05T16:00:00Z'));
  assert.deepEqual(none.path, ['t']);
  assert.equal(none.final?.type, 'close');
  assert.equal(localMinutes(now, 'Not/AZone'), null);
  assert.ok(withinWindow(30, 22 * 60, 2 * 60));
  assert.ok(!withinWindow(3 * 60, 22 * 60, 2 * 60));
});

test('a leaf closes; a loop of default actions stops at the step limit and closes', () => {
  const leaf = graph([node('a', { root: true })]);
  assert.equal(startDialog(leaf, 'x', now).final?.type, 'close');
  const loop = graph([
    node('a', { root: true, actions: [{ id: 'd', kind: 'default', next: 'b' }] }),
    node('b', { actions: [{ id: 'd', kind: 'default', next: 'a' }] }),
  ]);
  const s = startDialog(loop, 'x', now);
  assert.equal(s.final?.type, 'close');
  assert.equal(s.path.length, 50);
  assert.deepEqual(stepDialog(loop, 'x', s.state, { text: 'hi' }, now).outputs, []);
});

test('a button by its VOIP key (a keypad key typed or pressed) before its number', () => {
  const keyed = graph([
    node('a', {
      root: true,
      buttons: [
        { id: 'k1', text: 'Sales', voip: '2', next: 'p' },
        { id: 'k2', text: 'Help', voip: '#', next: 'h' },
      ],
    }),
    node('p', { actions: [{ id: 'f', kind: 'final', type: 'none' }] }),
    node('h', { actions: [{ id: 'f2', kind: 'final', type: 'close' }] }),
  ]);
  const s0 = startDialog(keyed, 'Sorry?', now).state;
  assert.deepEqual(stepDialog(keyed, 'Sorry?', s0, { text: '#' }, now).path, ['h']);
  assert.deepEqual(
    stepDialog(keyed, 'Sorry?', s0, { text: '2' }, now).path,
    ['p'],
    'the key, not the second button',
  );
  assert.deepEqual(stepDialog(keyed, 'Sorry?', s0, { text: '1' }, now).path, ['p'], 'a number still answers');
});
