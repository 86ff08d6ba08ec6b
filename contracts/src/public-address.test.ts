import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressTakesWebhooks } from './public-address.ts';

test('a public HTTPS address takes webhooks', () => {
  for (const url of [
    'https://chat.example.com',
    'https://desk.example.ru:8443/',
    'https://203.0.113.7',
    'https://[2001:db8::1]',
    'https://support.company.com.',
  ])
    assert.equal(addressTakesWebhooks(url), true, url);
});

test('local, private, plain-HTTP or malformed addresses do not', () => {
  for (const url of [
    'http://localhost:3000',
    'https://localhost',
    'http://chat.example.com',
    'https://app.localhost',
    'https://desk.local',
    'https://desk.corp.internal',
    'https://router.lan',
    'https://nas.home.arpa',
    'https://intranet',
    'https://127.0.0.1',
    'https://10.1.2.3',
    'https://172.20.0.5',
    'https://192.168.1.10',
    'https://169.254.0.1',
    'https://100.64.0.1',
    'https://0.0.0.0',
    'https://[::1]',
    'https://[fd12:3456::1]',
    'https://[fe80::1]',
    'https://[::ffff:192.168.0.1]',
    'not a url',
    '',
  ])
    assert.equal(addressTakesWebhooks(url), false, url);
  // Neighbours of the private ranges are public.
  assert.equal(addressTakesWebhooks('https://172.32.0.1'), true);
  assert.equal(addressTakesWebhooks('https://100.128.0.1'), true);
});
