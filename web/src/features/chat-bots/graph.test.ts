import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BotGraph } from '@smartconnect/contracts';
import { emptyNode, placeNode, removeNode, setNext, transitions } from './graph.ts';

const graph = (): BotGraph => {
  const a = { ...emptyNode(0, 0, true), id: 'a' };
  const b = { ...emptyNode(0, 200), id: 'b' };
  return {
    nodes: [
      {
        ...a,
        buttons: [{ id: 'x', text: 'X', next: 'b' }],
        actions: [{ id: 'd', kind: 'default', next: 'b' }],
      },
      { ...b, triggers: [{ id: 't', start: '09:00', end: '18:00', timeZone: 'UTC', next: 'a' }] },
    ],
  };
};

test('transitions: one per drawn button, trigger, intent and default action', () => {
  assert.deepEqual(transitions(graph()), [
    { nodeId: 'a', elementId: 'x', next: 'b' },
    { nodeId: 'a', elementId: 'd', next: 'b' },
    { nodeId: 'b', elementId: 't', next: 'a' },
  ]);
});

test('setNext points one element and leaves the rest', () => {
  const g = setNext(graph(), 'a', 'x', null);
  assert.equal(g.nodes[0].buttons[0].next, null);
  assert.deepEqual(g.nodes[0].actions[0], { id: 'd', kind: 'default', next: 'b' });
});

test('removeNode also removes every transition to it', () => {
  const g = removeNode(graph(), 'b');
  assert.deepEqual(
    g.nodes.map((n) => n.id),
    ['a'],
  );
  assert.deepEqual(transitions(g), []);
});

test('a new node goes to the centre of the view when that place is free', () => {
  const view = { x: 0, y: 0, width: 1000, height: 600 };
  const p = placeNode(
    { x: 500, y: 300 },
    { width: 200, height: 100 },
    [{ x: 0, y: 0, width: 100, height: 50 }],
    view,
  );
  assert.deepEqual(p, { x: 400, y: 250 });
});

test('a new node never covers another: the nearest free place inside the view', () => {
  const view = { x: 0, y: 0, width: 1000, height: 600 };
  const taken = [{ x: 400, y: 250, width: 200, height: 100 }];
  const size = { width: 200, height: 100 };
  const p = placeNode({ x: 500, y: 300 }, size, taken, view);
  assert.notDeepEqual(p, { x: 400, y: 250 });
  const clear =
    p.x >= 400 + 200 + 24 || p.x + 200 + 24 <= 400 || p.y >= 250 + 100 + 24 || p.y + 100 + 24 <= 250;
  assert.ok(clear, JSON.stringify(p));
  assert.ok(p.x >= 0 && p.y >= 0 && p.x + 200 <= 1000 && p.y + 100 <= 600, JSON.stringify(p));
  // The nearest: within one node's height of the centre spot.
  assert.ok(Math.hypot(p.x - 400, p.y - 250) <= 124 + 1, JSON.stringify(p));
});

test('a full view: the centre all the same', () => {
  const view = { x: 0, y: 0, width: 300, height: 200 };
  const p = placeNode({ x: 150, y: 100 }, { width: 200, height: 100 }, [view], view);
  assert.deepEqual(p, { x: 50, y: 50 });
});
