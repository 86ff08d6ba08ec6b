import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterLeaving, type KeyPress, neighbour, shortcutOf } from './keys.ts';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  typing: false,
  inList: false,
  inComposer: false,
  ...more,
});

test('arrows move between chats on the list; Alt+arrows anywhere, even while typing', () => {
  assert.equal(shortcutOf(press('ArrowDown', { inList: true })), 'next');
  assert.equal(shortcutOf(press('ArrowUp', { inList: true })), 'previous');
  assert.equal(shortcutOf(press('ArrowDown')), null, 'a plain arrow elsewhere scrolls the page');
  assert.equal(shortcutOf(press('ArrowDown', { altKey: true, typing: true, inComposer: true })), 'next');
  assert.equal(shortcutOf(press('ArrowUp', { altKey: true })), 'previous');
  assert.equal(shortcutOf(press('ArrowDown', { inList: true, shiftKey: true })), null);
  assert.equal(shortcutOf(press('ArrowDown', { inList: true, ctrlKey: true })), null);
});

test('R focuses the message box, ? opens the help, never while typing; Esc in the message box goes to the list', () => {
  assert.equal(shortcutOf(press('r')), 'composer');
  assert.equal(shortcutOf(press('R', { shiftKey: true })), 'composer');
  assert.equal(shortcutOf(press('к')), 'composer', 'the same key on a Russian layout');
  assert.equal(shortcutOf(press('?', { shiftKey: true })), 'help');
  assert.equal(shortcutOf(press('r', { typing: true })), null);
  assert.equal(shortcutOf(press('?', { typing: true, inComposer: true })), null);
  assert.equal(shortcutOf(press('r', { metaKey: true })), null, 'Cmd+R reloads');
  assert.equal(shortcutOf(press('Escape', { typing: true, inComposer: true })), 'list');
  assert.equal(shortcutOf(press('Escape', { typing: true })), null);
  assert.equal(shortcutOf(press('z')), null);
});

test('the core loop: T takes, K opens the category, X transfers, C closes; on a Russian layout too, never while typing', () => {
  assert.equal(shortcutOf(press('t')), 'take');
  assert.equal(shortcutOf(press('е')), 'take');
  assert.equal(shortcutOf(press('K', { shiftKey: true })), 'category');
  assert.equal(shortcutOf(press('л')), 'category');
  assert.equal(shortcutOf(press('x')), 'transfer');
  assert.equal(shortcutOf(press('ч')), 'transfer');
  assert.equal(shortcutOf(press('c')), 'close');
  assert.equal(shortcutOf(press('с')), 'close');
  for (const key of ['t', 'k', 'x', 'c']) {
    assert.equal(shortcutOf(press(key, { typing: true })), null, key);
    assert.equal(shortcutOf(press(key, { editing: true })), null, key);
    assert.equal(shortcutOf(press(key, { ctrlKey: true })), null, `Ctrl+${key} is the browser's`);
  }
});

test('letters never fire while an inline editor is open, even with the focus fallen to the page', () => {
  assert.equal(shortcutOf(press('r', { editing: true })), null);
  assert.equal(shortcutOf(press('к', { editing: true })), null);
  assert.equal(shortcutOf(press('?', { shiftKey: true, editing: true })), null);
  assert.equal(shortcutOf(press('ArrowDown', { altKey: true, editing: true })), 'next');
});

test('neighbour: the next or previous chat, the first or last when none is open, null past an end', () => {
  const ids = ['a', 'b', 'c'];
  assert.equal(neighbour(ids, 'b', 1), 'c');
  assert.equal(neighbour(ids, 'b', -1), 'a');
  assert.equal(neighbour(ids, 'c', 1), null);
  assert.equal(neighbour(ids, 'a', -1), null);
  assert.equal(neighbour(ids, null, 1), 'a');
  assert.equal(neighbour(ids, 'gone', -1), 'c');
  assert.equal(neighbour([], null, 1), null);
});

test('afterLeaving: the next chat, else the one before, else none', () => {
  assert.equal(afterLeaving(['a', 'b', 'c'], 'b'), 'c');
  assert.equal(afterLeaving(['a', 'b', 'c'], 'c'), 'b');
  assert.equal(afterLeaving(['a'], 'a'), null);
  assert.equal(afterLeaving(['a', 'b'], 'gone'), 'a');
  assert.equal(afterLeaving([], 'gone'), null);
});
