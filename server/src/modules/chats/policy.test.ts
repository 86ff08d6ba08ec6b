import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canAct, canSee, chatAudience } from './policy.ts';

const op = { userId: 'u1', all: false, teamIds: ['t1'] };
const sup = { userId: 's', all: true, teamIds: [] };

describe('chat policy', () => {
  test('an operator sees own chats and their teams’ Waiting queue only', () => {
    assert.ok(canSee(op, { status: 'waiting', operator_id: null, team_id: 't1' }));
    assert.ok(!canSee(op, { status: 'waiting', operator_id: null, team_id: 't2' }));
    assert.ok(!canSee(op, { status: 'in_progress', operator_id: 'u2', team_id: 't1' }));
    assert.ok(canSee(op, { status: 'closed', operator_id: 'u1', team_id: 't9' }));
    assert.ok(canSee(sup, { status: 'in_progress', operator_id: 'u2', team_id: 't2' }));
  });

  test('only the chat’s operator or AUTHORITY_ALL_CHATS acts on it', () => {
    assert.ok(!canAct(op, { status: 'waiting', operator_id: null, team_id: 't1' }));
    assert.ok(canAct(op, { status: 'in_progress', operator_id: 'u1', team_id: 't1' }));
    assert.ok(canAct(sup, { status: 'waiting', operator_id: null, team_id: 't1' }));
  });

  test('audience: operator, the team while waiting, supervisors; plus who must drop it', () => {
    assert.deepEqual(chatAudience({ status: 'waiting', operator_id: null, team_id: 't1' }), {
      rights: ['AUTHORITY_ALL_CHATS'],
      teamIds: ['t1'],
    });
    assert.deepEqual(
      chatAudience(
        { status: 'in_progress', operator_id: 'u1', team_id: 't1' },
        { userIds: ['u0', 'u1', null], teamIds: ['t1'] },
      ),
      {
        rights: ['AUTHORITY_ALL_CHATS'],
        userIds: ['u1', 'u0'],
        teamIds: ['t1'],
      },
    );
  });
});
