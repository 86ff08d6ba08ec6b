import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANDING_TEXTS } from './texts.ts';

/** The shape of a text tree: keys, list lengths, and where the leaves are (strings). */
function shape(v: unknown, path = ''): string[] {
  if (typeof v === 'string') {
    assert.ok(v.trim(), `${path} is empty`);
    return [path];
  }
  if (Array.isArray(v)) return [`${path}[${v.length}]`, ...v.flatMap((x, i) => shape(x, `${path}[${i}]`))];
  return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) =>
    shape(x, path ? `${path}.${k}` : k),
  );
}

test('the landing page has every text in both languages, with the same keys and list lengths', () => {
  assert.deepEqual(shape(LANDING_TEXTS.rus), shape(LANDING_TEXTS.eng));
});

test('the spec words of §2.2 are there in English', () => {
  const en = LANDING_TEXTS.eng;
  assert.equal(en.hero.cta, 'Try for Free');
  assert.equal(en.hero.note, '7-day trial period');
  assert.equal(en.short.submit, 'Submit request');
  assert.equal(en.modal.successTitle, 'Request successfully created!');
  assert.equal(en.modal.successText, 'We will contact you shortly');
  assert.equal(en.nav.try, 'Try');
  assert.equal(en.nav.signIn, 'Sign In');
});

test('Russian texts are Russian (no English left untranslated besides brand and channel names)', () => {
  const ru = shape(LANDING_TEXTS.rus);
  const en = shape(LANDING_TEXTS.eng);
  const get = (o: unknown, p: string) =>
    p
      .split(/\.|\[(\d+)\]/)
      .filter(Boolean)
      .reduce<unknown>((x, k) => (x as Record<string, unknown>)[k], o);
  const same = ru
    .filter((p) => en.includes(p) && typeof get(LANDING_TEXTS.rus, p) === 'string')
    .filter((p) => get(LANDING_TEXTS.rus, p) === get(LANDING_TEXTS.eng, p));
  const allowed = /^(hero\.channels|short\.placeholder|footer\.email)/;
  assert.deepEqual(
    same.filter((p) => !allowed.test(p)),
    [],
  );
});
