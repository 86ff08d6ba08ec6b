import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mailingCreateSchema } from '@smartconnect/contracts';
import { EMPTY_VALUES, formPath, parseList, toBody, toFormErrors } from './form-values.ts';

test('an uploaded list: one entry a line, the first CSV column, quotes and blanks dropped', () => {
  assert.deepEqual(parseList('+7 900 000-00-01\r\n\n "79000000002";Ann\n12345,x,y\n\t\n@user\tz'), [
    '+7 900 000-00-01',
    '79000000002',
    '12345',
    '@user',
  ]);
});

test('the body holds only the filters given and passes the contract', () => {
  const body = toBody({
    ...EMPTY_VALUES,
    name: 'Autumn sale',
    channelId: '5b0c3f3e-3f7a-4b8e-9a51-0c1d2e3f4a5b',
    text: 'Hello {client_name}',
    tags: ['vip'],
    list: 'a\nb',
    windowOn: true,
    ratePerSecond: 5,
  });
  assert.deepEqual(body.audience, { tags: ['vip'], list: ['a', 'b'] });
  assert.deepEqual(body.sendWindow, { from: '09:00', to: '21:00' });
  assert.equal(body.scheduledAt, null);
  assert.equal(body.ratePerSecond, 5);
  assert.ok(mailingCreateSchema.safeParse(body).success);
});

test("the API's error paths land under the form's inputs", () => {
  assert.equal(formPath('audience.list.3'), 'list');
  assert.equal(formPath('audience.tags'), 'tags');
  assert.equal(formPath('sendWindow.to'), 'windowTo');
  assert.equal(formPath('channelId'), 'channelId');
  assert.deepEqual(toFormErrors({ 'audience.list.0': 'a', 'audience.list.1': 'b', name: 'c' }), {
    list: 'a',
    name: 'c',
  });
});

test('files or a template stand in for the text; a template variable keeps its own input', () => {
  const base = { ...EMPTY_VALUES, name: 'Files', channelId: '5b0c3f3e-3f7a-4b8e-9a51-0c1d2e3f4a5b' };
  assert.equal(mailingCreateSchema.safeParse(toBody(base)).success, false);
  const withFile = toBody({
    ...base,
    attachments: [{ url: 'https://example.com/f/price.pdf', name: 'price.pdf', size: 10 }],
  });
  assert.equal(withFile.attachments.length, 1);
  assert.ok(mailingCreateSchema.safeParse(withFile).success);
  const withTemplate = toBody({
    ...base,
    template: { name: 'order_ready', languageCode: 'en', variables: ['{client_name}'] },
  });
  assert.deepEqual(withTemplate.template?.variables, ['{client_name}']);
  assert.ok(mailingCreateSchema.safeParse(withTemplate).success);
  assert.equal(formPath('template.variables.1'), 'template.variables.1');
  assert.equal(formPath('attachments.0.url'), 'attachments');
});
