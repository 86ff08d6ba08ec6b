import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LIMITS } from '@smartconnect/contracts';
import { createOrganisation, loginToken, startTestServer, type TestServer } from '../helpers.ts';

let n = 0;
const validUser = (roleId: string, extra: Record<string, unknown> = {}) => ({
  name: 'Anna Petrova',
  email: `anna${n++}-${Date.now()}@example.test`,
  phone: '79009009090'.slice(0, 9) + String(10 + (n % 90)),
  roleId,
  password: 'Str0ng-pass!',
  repeatPassword: 'Str0ng-pass!',
  breakTimeoutMinutes: 15,
  ...extra,
});

/** The smallest JPEG header file-type recognises, padded to the wanted size. */
function jpeg(size: number): Uint8Array {
  const head = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01];
  const buf = new Uint8Array(size);
  buf.set(head);
  buf[size - 2] = 0xff;
  buf[size - 1] = 0xd9;
  return buf;
}
const png = () =>
  new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

function form(bytes: Uint8Array, type: string, name: string): FormData {
  const f = new FormData();
  f.append('file', new Blob([bytes], { type }), name);
  return f;
}

describe('users', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('each invalid field gets its spec message', async () => {
    const org = await createOrganisation(s);
    const res = await org.admin.api.post('/api/users', {
      name: '   ',
      email: 'anna@',
      phone: '+7 900',
      roleId: org.roles.OPERATOR,
      password: 'weakpass',
      repeatPassword: 'other',
      breakTimeoutMinutes: 0,
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validationException');
    assert.deepEqual(res.body.error.fields, {
      name: 'Name specified incorrectly',
      email: 'Email specified incorrectly',
      phone: 'Phone number specified incorrectly',
      password: 'Password specified incorrectly',
      repeatPassword: 'Passwords do not match',
      breakTimeoutMinutes: 'Time specified incorrectly',
    });
    for (const bad of [1000, 1.5, -1]) {
      const r = await org.admin.api.post(
        '/api/users',
        validUser(org.roles.OPERATOR, { breakTimeoutMinutes: bad }),
      );
      assert.equal(r.body.error.fields.breakTimeoutMinutes, 'Time specified incorrectly');
    }
    for (const pw of ['Sh0rt!', 'nouppercase1!', 'NoDigits!!', 'NoSpecial11']) {
      const r = await org.admin.api.post(
        '/api/users',
        validUser(org.roles.OPERATOR, { password: pw, repeatPassword: pw }),
      );
      assert.equal(r.body.error.fields.password, 'Password specified incorrectly', pw);
    }
  });

  test('create, read, list with search and team filter, update', async () => {
    const org = await createOrganisation(s);
    const team = (await org.admin.api.post('/api/teams', { name: 'Sales', description: 'Orders' })).body
      .entity;
    const created = await org.admin.api.post(
      '/api/users',
      validUser(org.roles.OPERATOR, { name: 'Boris Team', teamIds: [team.id] }),
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const u = created.body.entity;
    assert.equal(u.name, 'Boris Team');
    assert.equal(u.role.builtIn, 'OPERATOR');
    assert.deepEqual(u.teams, [{ id: team.id, name: 'Sales' }]);
    assert.equal(u.active, true);
    assert.equal(u.breakTimeoutMinutes, 15);
    assert.equal('passwordHash' in u || 'password_hash' in u, false);
    await org.admin.api.post('/api/users', validUser(org.roles.OPERATOR, { name: 'Clara Solo' }));

    const search = await org.admin.api.get('/api/users?search=bor');
    assert.deepEqual(
      search.body.entity.items.map((x: { name: string }) => x.name),
      ['Boris Team'],
    );
    const byTeam = await org.admin.api.get(`/api/users?team=${team.id}`);
    assert.equal(byTeam.body.entity.total, 1);
    const all = await org.admin.api.get('/api/users');
    assert.equal(all.body.entity.total, 3);

    const upd = await org.admin.api.patch(`/api/users/${u.id}`, {
      name: 'Boris Renamed',
      teamIds: [],
      phone: '',
    });
    assert.equal(upd.status, 200);
    assert.equal(upd.body.entity.name, 'Boris Renamed');
    assert.deepEqual(upd.body.entity.teams, []);
    assert.equal(upd.body.entity.phone, null);

    // The new user can log in with the password set by the administrator.
    await loginToken(s.api, u.email, 'Str0ng-pass!');
  });

  test('e-mail is unique; phone is unique in the organisation', async () => {
    const org = await createOrganisation(s);
    const first = validUser(org.roles.OPERATOR, { phone: '79001112233' });
    assert.equal((await org.admin.api.post('/api/users', first)).status, 200);
    const sameEmail = await org.admin.api.post('/api/users', {
      ...validUser(org.roles.OPERATOR),
      email: first.email.toUpperCase(),
    });
    assert.equal(sameEmail.status, 409);
    assert.equal(sameEmail.body.code, 'emailAlreadyExistsException');
    // A field error for the form (issue 36), beside the code.
    assert.deepEqual(sameEmail.body.error.fields, { email: 'Email already exists' });
    const samePhone = await org.admin.api.post(
      '/api/users',
      validUser(org.roles.OPERATOR, { phone: '79001112233' }),
    );
    assert.equal(samePhone.body.code, 'phoneAlreadyExistsException');
    assert.deepEqual(samePhone.body.error.fields, { phone: 'Phone already exists' });
    // One number however it is written (issue 29's normaliser), kept in §3's form 'like 79009009090'.
    const written = await org.admin.api.post(
      '/api/users',
      validUser(org.roles.OPERATOR, { phone: '+7 (900) 111-22-33' }),
    );
    assert.equal(written.body.code, 'phoneAlreadyExistsException');
    const other = await org.admin.api.post(
      '/api/users',
      validUser(org.roles.OPERATOR, { phone: '8 900 444-55-66' }),
    );
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.equal(other.body.entity.phone, '79004445566');
  });

  test('role and teams must belong to the organisation', async () => {
    const a = await createOrganisation(s);
    const b = await createOrganisation(s);
    const bTeam = (await b.admin.api.post('/api/teams', { name: 'B team', description: 'B' })).body.entity;
    const foreignRole = await a.admin.api.post('/api/users', validUser(b.roles.OPERATOR));
    assert.equal(foreignRole.body.error.fields.roleId, 'Role specified incorrectly');
    const foreignTeam = await a.admin.api.post(
      '/api/users',
      validUser(a.roles.OPERATOR, { teamIds: [bTeam.id] }),
    );
    assert.equal(foreignTeam.body.error.fields.teamIds, 'Team specified incorrectly');
  });

  test('deactivate and activate; nobody deactivates themselves', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const off = await org.admin.api.patch(`/api/users/${op.id}`, { active: false });
    assert.equal(off.body.entity.active, false);
    assert.equal((await op.api.get('/api/auth/user')).status, 401);
    const on = await org.admin.api.post(`/api/users/${op.id}/activate`);
    assert.equal(on.body.entity.active, true);
    await loginToken(s.api, op.email, op.password);
    const self = await org.admin.api.post(`/api/users/${org.admin.id}/deactivate`);
    assert.equal(self.body.code, 'accessDeniedException');
  });

  test('supervisor moves a user between teams (AUTHORITY_TEAMS_UPDATE)', async () => {
    const org = await createOrganisation(s);
    const sup = await org.user({ role: 'SUPERVISOR' });
    const op = await org.user();
    const team = (await sup.api.post('/api/teams', { name: 'Night', description: 'Night shift' })).body
      .entity;
    const res = await sup.api.put(`/api/users/${op.id}/teams`, { teamIds: [team.id] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.entity.teams, [{ id: team.id, name: 'Night' }]);
    assert.equal(
      (await sup.api.patch(`/api/users/${op.id}`, { name: 'x' })).body.code,
      'accessDeniedException',
    );
  });

  test('avatar: JPEG by content up to 200 KB, served back; others refused', async () => {
    const org = await createOrganisation(s);
    const op = await org.user();
    const ok = await org.admin.api.call(
      'PUT',
      `/api/users/${op.id}/photo`,
      form(jpeg(50_000), 'image/jpeg', 'me.jpg'),
    );
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const url = ok.body.entity.photoUrl;
    assert.match(url, /^\/api\/files\//);
    const file = await fetch(s.url + url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/jpeg');
    assert.equal((await file.arrayBuffer()).byteLength, 50_000);

    const exact = await org.admin.api.call(
      'PUT',
      `/api/users/${op.id}/photo`,
      form(jpeg(LIMITS.avatarMaxBytes), 'image/jpeg', 'a.jpg'),
    );
    assert.equal(exact.status, 200);
    // The old file is gone once replaced.
    assert.equal((await fetch(s.url + url)).status, 404);

    const big = await org.admin.api.call(
      'PUT',
      `/api/users/${op.id}/photo`,
      form(jpeg(LIMITS.avatarMaxBytes + 1), 'image/jpeg', 'big.jpg'),
    );
    assert.equal(big.status, 413);
    assert.equal(big.body.code, 'pictureTooBigException');
    assert.equal(big.body.error.details.maxBytes, LIMITS.avatarMaxBytes);

    // A PNG named .jpg with a JPEG content type is still a PNG.
    const disguised = await org.admin.api.call(
      'PUT',
      `/api/users/${op.id}/photo`,
      form(png(), 'image/jpeg', 'fake.jpg'),
    );
    assert.equal(disguised.status, 400);
    assert.equal(disguised.body.code, 'fileUploadException');

    const raw = await op.api.call('PUT', '/api/auth/acc/photo', jpeg(1000), { 'content-type': 'image/jpeg' });
    assert.equal(raw.status, 200, JSON.stringify(raw.body));
    assert.match(raw.body.entity.photoUrl, /^\/api\/files\//);
    const removed = await op.api.delete('/api/auth/acc/photo');
    assert.equal(removed.body.entity.photoUrl, null);
  });
});
