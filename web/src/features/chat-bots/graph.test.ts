import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BotGraph } from '@smartconnect/contracts';
import { emptyNode, removeNode, setNext, transitions } from './graph.ts';

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
