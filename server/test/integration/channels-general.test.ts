import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { makeChannel, makeTeam } from './chats-fixtures.ts';

describe('a channel’s general settings (§3): notification e-mail, team visibility, service assessment', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('created with defaults, set on creation, changed and cleared by an update', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const other = await makeTeam(org);
    const plain = await makeChannel(org, teamId);
    const fresh = await org.admin.api.get(`/api/channels/${plain.id}`);
    assert.deepEqual(
      {
        notificationEmail: fresh.body.entity.notificationEmail,
        visibleTeamIds: fresh.body.entity.visibleTeamIds,
        ratingBeforeEnd: fresh.body.entity.ratingBeforeEnd,
        ratingMessage: fresh.body.entity.ratingMessage,
      },
      { notificationEmail: null, visibleTeamIds: [], ratingBeforeEnd: false, ratingMessage: null },
    );

    const set = await makeChannel(org, teamId, {
      notificationEmail: ' Alerts@Shop.test ',
      visibleTeamIds: [other, other],
      ratingBeforeEnd: true,
      ratingMessage: 'How did we do?',
    });
    const created = (await org.admin.api.get(`/api/channels/${set.id}`)).body.entity;
    assert.equal(created.notificationEmail, 'Alerts@Shop.test');
    assert.deepEqual(created.visibleTeamIds, [other]);
    assert.equal(created.ratingBeforeEnd, true);
    assert.equal(created.ratingMessage, 'How did we do?');

    const updated = await org.admin.api.patch(`/api/channels/${set.id}`, {
      notificationEmail: null,
      visibleTeamIds: [],
      ratingBeforeEnd: false,
      ratingMessage: '',
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(
      {
        notificationEmail: updated.body.entity.notificationEmail,
        visibleTeamIds: updated.body.entity.visibleTeamIds,
        ratingBeforeEnd: updated.body.entity.ratingBeforeEnd,
        ratingMessage: updated.body.entity.ratingMessage,
      },
      { notificationEmail: null, visibleTeamIds: [], ratingBeforeEnd: false, ratingMessage: null },
    );
    // Other fields are left as they were by an update that does not name them.
    const renamed = await org.admin.api.patch(`/api/channels/${set.id}`, { visibleTeamIds: [other, teamId] });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.deepEqual([...renamed.body.entity.visibleTeamIds].sort(), [other, teamId].sort());
    assert.equal(renamed.body.entity.name, created.name);
  });

  test('the spec’s messages: a bad e-mail, a foreign or unknown team, a long text; the rating needs its plan option', async () => {
    const org = await createOrganisation(s);
    const stranger = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const foreignTeam = await makeTeam(stranger);
    const ch = await makeChannel(org, teamId);
    const patch = (body: Record<string, unknown>) => org.admin.api.patch(`/api/channels/${ch.id}`, body);

    const email = await patch({ notificationEmail: 'not an e-mail' });
    assert.equal(email.status, 400);
    assert.deepEqual(email.body.error.fields, { notificationEmail: 'Email specified incorrectly' });
    const foreign = await patch({ visibleTeamIds: [foreignTeam] });
    assert.equal(foreign.status, 400);
    assert.deepEqual(foreign.body.error.fields, { visibleTeamIds: 'Team specified incorrectly' });
    const junk = await patch({ visibleTeamIds: ['x'] });
    assert.equal(junk.status, 400);
    assert.equal(junk.body.error.fields['visibleTeamIds.0'], 'Team specified incorrectly');
    const long = await patch({ ratingMessage: 'x'.repeat(1001) });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body.error.fields, { ratingMessage: 'Value specified incorrectly' });
    const flag = await patch({ ratingBeforeEnd: 'yes' });
    assert.equal(flag.status, 400);
    const refused = await org.admin.api.post('/api/channels', {
      type: 'api',
      name: 'Foreign',
      teamId,
      webhookUrl: 'http://127.0.0.1:9/x',
      visibleTeamIds: [foreignTeam],
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.error.fields, { visibleTeamIds: 'Team specified incorrectly' });
    // Nothing changed.
    const after = (await org.admin.api.get(`/api/channels/${ch.id}`)).body.entity;
    assert.deepEqual([after.notificationEmail, after.visibleTeamIds, after.ratingMessage], [null, [], null]);

    const basic = await createOrganisation(s, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_QUALITY_ASSESSMENT'),
    });
    const basicTeam = await makeTeam(basic);
    const basicChannel = await makeChannel(basic, basicTeam);
    const noOption = await basic.admin.api.patch(`/api/channels/${basicChannel.id}`, {
      ratingBeforeEnd: true,
    });
    assert.equal(noOption.status, 403);
    assert.equal(noOption.body.code, 'optionUnavailableException');
    const creating = await basic.admin.api.post('/api/channels', {
      type: 'api',
      name: 'Rated',
      teamId: basicTeam,
      webhookUrl: 'http://127.0.0.1:9/x',
      ratingBeforeEnd: true,
    });
    assert.equal(creating.status, 403);
    // Switching it off, or the text alone, needs no option.
    const off = await basic.admin.api.patch(`/api/channels/${basicChannel.id}`, {
      ratingBeforeEnd: false,
      ratingMessage: 'Rate us',
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
  });
});
