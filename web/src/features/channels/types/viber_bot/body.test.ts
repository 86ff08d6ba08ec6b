import assert from 'node:assert/strict';
import { test } from 'node:test';
import { viberBotBody } from './body.ts';

test('creating sends what was given; editing sends changes, an emptied welcome or photo as null (removed)', () => {
  assert.deepEqual(viberBotBody({ token: 'a-b', welcomeMessage: '', photo: '' }), { token: 'a-b' });
  assert.deepEqual(viberBotBody({ token: 'a-b', welcomeMessage: 'Hi', photo: '/api/files/k' }), {
    token: 'a-b',
    welcomeMessage: 'Hi',
    photo: '/api/files/k',
  });
  const initial = { token: '', welcomeMessage: 'Hi', photo: '/api/files/k' };
  assert.deepEqual(viberBotBody({ ...initial }, initial), {}, 'nothing changed: nothing sent');
  assert.deepEqual(viberBotBody({ ...initial, welcomeMessage: '  ' }, initial), { welcomeMessage: null });
  assert.deepEqual(viberBotBody({ ...initial, photo: '' }, initial), { photo: null });
  assert.deepEqual(viberBotBody({ ...initial, token: 'c-d', welcomeMessage: 'Hello' }, initial), {
    token: 'c-d',
    welcomeMessage: 'Hello',
  });
});
