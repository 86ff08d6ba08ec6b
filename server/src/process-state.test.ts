import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type AppContext, stateSlot } from './context.ts';
import { ProcessState } from './process-state.ts';

const appWith = (state: ProcessState<AppContext>) => ({ state }) as unknown as AppContext;

test('a slot is made once per app, on first use; another app has its own', () => {
  let made = 0;
  const COUNTER = stateSlot('test.counter', () => ({ n: ++made }));
  const a = appWith(new ProcessState());
  const b = appWith(new ProcessState());
  assert.equal(a.state.peek(COUNTER), undefined);
  assert.equal(a.state.of(a, COUNTER).n, 1);
  assert.equal(a.state.of(a, COUNTER).n, 1);
  assert.equal(b.state.of(b, COUNTER).n, 2);
  assert.deepEqual(a.state.names, ['test.counter']);
});

test('close() releases newest first; a failing release is reported and the others still run', async () => {
  const released: string[] = [];
  const errors: string[] = [];
  const FIRST = stateSlot(
    'first',
    () => 1,
    () => void released.push('first'),
  );
  const BROKEN = stateSlot(
    'broken',
    () => 2,
    () => {
      throw new Error('boom');
    },
  );
  const LAST = stateSlot(
    'last',
    () => 3,
    async () => void released.push('last'),
  );
  const NONE = stateSlot('none', () => 4);
  const app = appWith(new ProcessState());
  for (const slot of [FIRST, BROKEN, LAST, NONE]) app.state.of(app, slot);
  await app.state.close((err, name) => errors.push(`${name}: ${(err as Error).message}`));
  assert.deepEqual(released, ['last', 'first']);
  assert.deepEqual(errors, ['broken: boom']);
  assert.deepEqual(app.state.names, []);
});

test('no module keeps process state of its own beside app.state (no WeakMap keyed by the AppContext)', () => {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(name) && !name.endsWith('.test.ts'))
        if (/new WeakMap<AppContext\b/.test(readFileSync(path, 'utf8'))) found.push(path);
    }
  };
  walk(new URL('.', import.meta.url).pathname);
  assert.deepEqual(found, []);
});
