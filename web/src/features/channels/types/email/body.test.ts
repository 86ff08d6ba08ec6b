import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emailCreateFields } from '@smartconnect/contracts';
import { emailBody, emailFieldOf, emailInitial } from './body.ts';

test('the flat form becomes the nested body; editing sends only changed blocks, a password only when typed', () => {
  const own = {
    ...emailInitial(),
    address: 'support@shop.test',
    receiveHost: 'imap.shop.test',
    receiveLogin: 'support',
    receivePassword: 'p1',
    sendHost: 'smtp.shop.test',
    sendPort: '587',
    sendSecure: 'false',
    sendLogin: 'support',
    sendPassword: 'p2',
  };
  const body = emailBody(own);
  assert.deepEqual(body.send, {
    host: 'smtp.shop.test',
    port: 587,
    secure: false,
    login: 'support',
    password: 'p2',
    protocol: 'smtp',
  });
  assert.equal(emailCreateFields.safeParse(body).success, true);
  const initial = { ...own, receivePassword: '', sendPassword: '' };
  assert.deepEqual(emailBody(initial, initial), {});
  const edited = emailBody({ ...initial, sendLogin: 'other' }, initial);
  assert.deepEqual(Object.keys(edited), ['send']);
  assert.equal((edited.send as Record<string, unknown>).password, undefined);
  const port = emailCreateFields.safeParse(emailBody({ ...own, receivePort: 'abc' }));
  assert.equal(port.error?.issues[0].message, 'The port must be a number from 1 to 65535');
  assert.equal(emailFieldOf(port.error?.issues[0].path.join('.') ?? ''), 'receivePort');
  assert.equal(emailFieldOf('send'), 'sendHost');
  assert.equal(emailFieldOf('address'), 'address');
});
