import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canAct, canSee, chatAudience } from './policy.ts';

const op = { userId: 'u1', all: false, teamIds: ['t1'] };
const sup = { userId: 's', all: true, teamIds: [] };

describe('chat policy', () => {
  test('an operator sees own chats and their teams’ Waiting queue only', () => {
    assert.ok(canSee(op, { status: 'waiting', operator_id: null, team_id: 't1', visible_team_ids: [] }));
    assert.ok(!canSee(op, { status: 'waiting', operator_id: null, team_id: 't2', visible_team_ids: [] }));
    assert.ok(!canSee(op, { status: 'in_progress', operator_id: 'u2', team_id: 't1', visible_team_ids: [] }));
    assert.ok(canSee(op, { status: 'closed', operator_id: 'u1', team_id: 't9', visible_team_ids: [] }));
    assert.ok(canSee(sup, { status: 'in_progress', operator_id: 'u2', team_id: 't2', visible_team_ids: [] }));
  });

  test('a Waiting chat of a channel visible to one of the operator’s teams is theirs to see, until it is taken', () => {
    assert.ok(
      canSee(op, { status: 'waiting', operator_id: null, team_id: 't2', visible_team_ids: ['t3', 't1'] }),
    );
    assert.ok(!canSee(op, { status: 'waiting', operator_id: null, team_id: 't2', visible_team_ids: ['t3'] }));
    assert.ok(
      !canSee(op, { status: 'in_progress', operator_id: 'u2', team_id: 't2', visible_team_ids: ['t1'] }),
    );
    assert.ok(!canSee(op, { status: 'closed', operator_id: 'u2', team_id: 't2', visible_team_ids: ['t1'] }));
    assert.ok(!canAct(op, { status: 'waiting', operator_id: null, team_id: 't2', visible_team_ids: ['t1'] }));
  });

  test('only the chat’s operator or AUTHORITY_ALL_CHATS acts on it', () => {
    assert.ok(!canAct(op, { status: 'waiting', operator_id: null, team_id: 't1', visible_team_ids: [] }));
    assert.ok(canAct(op, { status: 'in_progress', operator_id: 'u1', team_id: 't1', visible_team_ids: [] }));
    assert.ok(canAct(sup, { status: 'waiting', operator_id: null, team_id: 't1', visible_team_ids: [] }));
  });

  test('audience: operator, the team while waiting, supervisors; plus who must drop it', () => {
    assert.deepEqual(
      chatAudience({ status: 'waiting', operator_id: null, team_id: 't1', visible_team_ids: [] }),
      {
        rights: ['AUTHORITY_ALL_CHATS'],
        teamIds: ['t1'],
      },
    );
    assert.deepEqual(
      chatAudience({ status: 'waiting', operator_id: null, team_id: 't1', visible_team_ids: ['t2', 't1'] }),
      {
        rights: ['AUTHORITY_ALL_CHATS'],
        teamIds: ['t1', 't2'],
      },
    );
    // Visible teams follow the chat only while it waits; a transition names who must drop it in `also`.
    assert.deepEqual(
      chatAudience(
        { status: 'in_progress', operator_id: 'u1', team_id: 't1', visible_team_ids: ['t2'] },
        { teamIds: ['t1', 't2'] },
      ),
      { rights: ['AUTHORITY_ALL_CHATS'], userIds: ['u1'], teamIds: ['t1', 't2'] },
    );
    assert.deepEqual(
      chatAudience(
        { status: 'in_progress', operator_id: 'u1', team_id: 't1', visible_team_ids: [] },
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
