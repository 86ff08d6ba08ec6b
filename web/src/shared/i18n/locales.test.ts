import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERROR_CODES, FIELD_MESSAGES, RIGHTS } from '@smartconnect/contracts';
import { enGB } from './en-gb.ts';
import { ruRU } from './ru-ru.ts';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
}

function lookup(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

const en = keys(enGB as Tree);
const ru = keys(ruRU as Tree);

test('every English key exists in Russian', () => {
  assert.deepEqual(
    en.filter((k) => !ru.includes(k)),
    [],
  );
});

test('every Russian key exists in English', () => {
  assert.deepEqual(
    ru.filter((k) => !en.includes(k)),
    [],
  );
});

test('no translation is empty', () => {
  for (const tree of [enGB, ruRU] as Tree[]) {
    assert.deepEqual(
      keys(tree).filter((k) => !lookup(tree, k)?.trim()),
      [],
    );
  }
});

test('every field message of the contracts has a translation in both locales', () => {
  for (const key of Object.keys(FIELD_MESSAGES)) {
    assert.ok(lookup(enGB as Tree, `fields.${key}`), `en-GB fields.${key}`);
    assert.ok(lookup(ruRU as Tree, `fields.${key}`), `ru-RU fields.${key}`);
  }
  // English texts are the spec's words, so the server's field errors and the form's agree.
  for (const [key, text] of Object.entries(FIELD_MESSAGES)) {
    assert.equal(lookup(enGB as Tree, `fields.${key}`), text);
  }
});

test('every error code and every right has a translation in both locales', () => {
  for (const code of ERROR_CODES) {
    assert.ok(lookup(enGB as Tree, `errors.${code}`), `en-GB errors.${code}`);
    assert.ok(lookup(ruRU as Tree, `errors.${code}`), `ru-RU errors.${code}`);
  }
  for (const right of RIGHTS) {
    assert.ok(lookup(ruRU as Tree, `rights.${right}`), `ru-RU rights.${right}`);
    assert.ok(lookup(enGB as Tree, `rights.${right}`), `en-GB rights.${right}`);
  }
});

test('interpolation placeholders agree between the locales', () => {
  const vars = (s: string | undefined) => [...(s ?? '').matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  for (const k of en) assert.deepEqual(vars(lookup(ruRU as Tree, k)), vars(lookup(enGB as Tree, k)), k);
});
