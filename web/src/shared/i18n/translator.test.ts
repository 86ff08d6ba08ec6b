import assert from 'node:assert/strict';
import { test } from 'node:test';
import i18next from 'i18next';
import { enGB } from './en-gb.ts';
import { ruRU } from './ru-ru.ts';
import { Translator } from './translator.ts';

type Tree = { [key: string]: string | Tree };
const keys = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );

const small = () => {
  const tr = new Translator('ru-RU', 'en-GB');
  tr.addTexts('en-GB', {
    a: {
      hello: 'Hello, {{name}}',
      only: 'English only',
      n_one: '{{count}} item',
      n_other: '{{count}} items',
    },
  });
  tr.addTexts('ru-RU', {
    a: {
      hello: 'Привет, {{name}}',
      n_one: '{{count}} штука',
      n_few: '{{count}} штуки',
      n_many: '{{count}} штук',
    },
  });
  return tr;
};

test('a key: the current locale, then the fallback, then the key itself; defaultValue for a missing key', () => {
  const tr = small();
  assert.equal(tr.t('a.hello', { name: 'Анна' }), 'Привет, Анна');
  assert.equal(tr.t('a.only'), 'English only');
  assert.equal(tr.t('a.none'), 'a.none');
  assert.equal(tr.t('a.none', { defaultValue: 'x {{v}}', v: 1 }), 'x 1');
  assert.equal(tr.t('a.none', 'Plain'), 'Plain');
  assert.equal(tr.t('a.only', 'Plain'), 'English only');
  assert.equal(tr.t('a'), 'a', 'a namespace is not a text');
  assert.equal(tr.exists('a.only'), true);
  assert.equal(tr.exists('a.none'), false);
  assert.equal(tr.t('a.hello'), 'Привет, {{name}}', 'a value not given leaves the placeholder');
});

test('plural forms by the locale’s rules, the fallback’s forms by its own rules', () => {
  const tr = small();
  assert.deepEqual(
    [1, 3, 5, 21, 0].map((count) => tr.t('a.n', { count })),
    ['1 штука', '3 штуки', '5 штук', '21 штука', '0 штук'],
  );
  tr.changeLanguage('en-GB');
  assert.deepEqual(
    [1, 3].map((count) => tr.t('a.n', { count })),
    ['1 item', '3 items'],
  );
});

test('t is a new function after a change of language or texts (React draws again), and listeners hear it', () => {
  const tr = small();
  let heard = 0;
  const stop = tr.subscribe(() => heard++);
  const before = tr.t;
  tr.changeLanguage('en-GB');
  assert.notEqual(tr.t, before);
  const again = tr.t;
  tr.addTexts('en-GB', { a: { later: 'Later' } });
  assert.notEqual(tr.t, again);
  assert.equal(tr.t('a.hello', { name: 'Ann' }), 'Hello, Ann', 'texts are merged, not replaced');
  stop();
  tr.changeLanguage('ru-RU');
  assert.equal(heard, 2);
});

test('every text of both locales reads as i18next read it (plain, with values, with counts)', async () => {
  for (const [lng, texts] of [
    ['en-GB', enGB],
    ['ru-RU', ruRU],
  ] as const) {
    const ours = new Translator(lng, 'en-GB');
    ours.addTexts('en-GB', enGB);
    ours.addTexts(lng, texts);
    const theirs = i18next.createInstance();
    await theirs.init({
      lng,
      fallbackLng: 'en-GB',
      resources: { 'en-GB': { translation: enGB }, [lng]: { translation: texts } },
      interpolation: { escapeValue: false },
      showSupportNotice: false,
    });
    const all = [...new Set(keys(texts as Tree).map((k) => k.replace(/_(one|few|many|other)$/, '')))];
    assert.ok(all.length > 1000, `${all.length} keys`);
    for (const key of all) {
      const values = { name: 'N', value: '<b>', total: 7, n: 2 };
      for (const options of [
        undefined,
        values,
        { ...values, count: 1 },
        { count: 3 },
        { count: 5 },
        { count: 21 },
      ])
        assert.equal(
          ours.t(key, options),
          theirs.t(key, options as never),
          `${lng} ${key} ${JSON.stringify(options)}`,
        );
    }
    assert.equal(ours.t('no.such.key'), theirs.t('no.such.key'));
  }
});
