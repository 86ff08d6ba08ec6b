import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { blinkTitle, setPageTitle } from './title.ts';

function fakeDoc() {
  const link = {
    href: '/favicon.svg',
    getAttribute: () => link.href,
    setAttribute: (_: string, v: string) => {
      link.href = v;
    },
  };
  return { title: '', link, querySelector: () => link } as unknown as Document & { link: { href: string } };
}

test('route title defaults to the platform name and blinks every 1000 ms until stopped', () => {
  mock.timers.enable({ apis: ['setInterval'] });
  const doc = fakeDoc();
  setPageTitle(undefined, undefined, doc);
  assert.equal(doc.title, 'SmartConnect');
  setPageTitle('Users', undefined, doc);
  assert.equal(doc.title, 'Users · SmartConnect');

  const stop = blinkTitle('New message!', '/favicon-alert.svg', doc, globalThis);
  assert.equal(doc.title, 'New message!');
  assert.equal(doc.link.href, '/favicon-alert.svg');
  mock.timers.tick(999);
  assert.equal(doc.title, 'New message!');
  mock.timers.tick(1);
  assert.equal(doc.title, 'Users · SmartConnect');
  assert.equal(doc.link.href, '/favicon.svg');
  mock.timers.tick(1000);
  assert.equal(doc.title, 'New message!');
  stop();
  assert.equal(doc.title, 'Users · SmartConnect');
  mock.timers.tick(5000);
  assert.equal(doc.title, 'Users · SmartConnect');
  mock.timers.reset();
});
