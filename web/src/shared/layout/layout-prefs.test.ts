import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutPrefsKey, readLayoutPrefs, writeLayoutPrefs } from './layout-prefs.ts';

function memory() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

describe('layout prefs', () => {
  it('starts with both panels open', () => {
    assert.deepEqual(readLayoutPrefs('u1', memory()), { navCollapsed: false, clientPanelCollapsed: false });
  });

  it('keeps each flag per user id, one flag not touching the other', () => {
    const store = memory();
    writeLayoutPrefs('u1', { navCollapsed: true }, store);
    writeLayoutPrefs('u1', { clientPanelCollapsed: true }, store);
    writeLayoutPrefs('u2', { clientPanelCollapsed: true }, store);
    assert.deepEqual(readLayoutPrefs('u1', store), { navCollapsed: true, clientPanelCollapsed: true });
    assert.deepEqual(readLayoutPrefs('u2', store), { navCollapsed: false, clientPanelCollapsed: true });
    writeLayoutPrefs('u1', { navCollapsed: false }, store);
    assert.deepEqual(readLayoutPrefs('u1', store), { navCollapsed: false, clientPanelCollapsed: true });
  });

  it('reads a damaged entry as the defaults', () => {
    const store = memory();
    store.setItem(layoutPrefsKey('u1'), '{not json');
    assert.deepEqual(readLayoutPrefs('u1', store), { navCollapsed: false, clientPanelCollapsed: false });
  });
});
