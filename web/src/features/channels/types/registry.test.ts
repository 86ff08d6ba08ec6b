import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enGB } from '../../../shared/i18n/en-gb.ts';
import { ruRU } from '../../../shared/i18n/ru-ru.ts';

// The registry's screens import the app's i18n, which reads the language from localStorage: stubbed for Node.
const g = globalThis as Record<string, unknown>;
g.localStorage ??= { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
g.document ??= { documentElement: {} };
const { CHANNEL_UIS } = await import('./registry.ts');

type Tree = { [key: string]: string | Tree };
const resolves = (tree: Tree, path: string): boolean => {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' && node.trim() !== '';
};

test("every channel type's guide names texts both languages have (no raw key on the screen, issue 36.9)", () => {
  const missing: string[] = [];
  for (const ui of Object.values(CHANNEL_UIS)) {
    if (!ui) continue;
    const keys = [
      ui.guideIntro ?? `channels.guide.${ui.type}.intro`,
      ...ui.guideSteps,
      ...(ui.guideNote ? [ui.guideNote] : []),
      ...(ui.session?.templatesLabel ? [ui.session.templatesLabel] : []),
      ...(ui.session?.closesAt ? [ui.session.closesAt] : []),
      ...(ui.session?.ended ? [ui.session.ended] : []),
    ];
    for (const key of keys)
      for (const [lang, tree] of [
        ['en', enGB],
        ['ru', ruRU],
      ] as const)
        if (!resolves(tree as Tree, key)) missing.push(`${ui.type} ${lang}: ${key}`);
  }
  assert.deepEqual(missing, []);
});
