import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { adapterFor, typesWith } from '../../channels/registry.ts';

const MODULES = new URL('..', import.meta.url).pathname;

test('the site widget and the chat page built on it are the channel types with the visitorWidget capability', () => {
  assert.deepEqual(typesWith('visitorWidget'), ['site_chat', 'chat_page']);
  assert.equal(adapterFor('site_chat').capabilities.visitorWidget, true);
  assert.equal(adapterFor('chat_page').capabilities.visitorWidget, true);
  assert.equal(adapterFor('telegram').capabilities.visitorWidget, undefined);
});

test('ratings and support ask the adapter a capability, never a channel type by its name', () => {
  const named: string[] = [];
  for (const module of ['ratings', 'support'])
    for (const file of readdirSync(join(MODULES, module))) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const source = readFileSync(join(MODULES, module, file), 'utf8');
      if (/['"`]site_chat['"`]|type\s*[!=]==?\s*'/.test(source)) named.push(`${module}/${file}`);
    }
  assert.deepEqual(named, []);
});
