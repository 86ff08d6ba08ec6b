import assert from 'node:assert/strict';
import { test } from 'node:test';
import { botGraphSchema } from '@smartconnect/contracts';
import { simAnswer, simStart } from './simulator-model.ts';

const graph = botGraphSchema.parse({
  nodes: [
    {
      id: 'a',
      root: true,
      position: { x: 0, y: 0 },
      reply: { text: 'Hello! Pick one' },
      buttons: [
        { id: 'b1', text: 'Prices', next: 'p' },
        { id: 'b2', text: 'People', next: 'h' },
      ],
    },
    {
      id: 'p',
      position: { x: 0, y: 0 },
      reply: { text: 'Cheap' },
      buttons: [{ id: 'b3', text: 'Back', next: 'a' }],
    },
    {
      id: 'h',
      position: { x: 0, y: 0 },
      reply: { text: 'Passing you on' },
      actions: [{ id: 'f', kind: 'final', type: 'team' }],
    },
  ],
});

test('the simulator steps the draft: buttons, typed text, the default message, the path and the end', () => {
  let s = simStart(graph, 'Pardon?');
  assert.deepEqual(s.path, ['a']);
  assert.equal(s.lines.length, 1);
  s = simAnswer(graph, 'Pardon?', s, { payload: 'b1', label: 'Prices' });
  assert.deepEqual(s.path, ['a', 'p']);
  assert.deepEqual(
    s.lines.map((l) => l.text),
    ['Hello! Pick one', 'Prices', 'Cheap'],
  );
  s = simAnswer(graph, 'Pardon?', s, { text: 'something else' });
  assert.equal(s.lines.at(-1)?.text, 'Pardon?');
  s = simAnswer(graph, 'Pardon?', s, { text: 'back' });
  s = simAnswer(graph, 'Pardon?', s, { text: '2' });
  assert.deepEqual(s.path, ['a', 'p', 'a', 'h']);
  assert.equal(s.final?.type, 'team');
  assert.equal(simAnswer(graph, 'Pardon?', s, { text: 'hi' }), s, 'an ended dialog takes nothing more');
});
