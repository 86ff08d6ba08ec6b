import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enGB } from '../../../shared/i18n/en-gb.ts';
import { ruRU } from '../../../shared/i18n/ru-ru.ts';
import { deliveryReason } from './delivery-reason.ts';

/** A t() over one locale's resources with {{name}} interpolation, as the app's translator does. */
const translator =
  (resources: Record<string, unknown>) =>
  (key: string, values: Record<string, string> = {}) => {
    const text = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], resources);
    assert.equal(typeof text, 'string', key);
    return (text as string).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
  };

test("Viber's unsubscribed receiver reads as §8's hint in both languages; other reasons as they came", () => {
  const en = translator(enGB as Record<string, unknown>);
  const ru = translator(ruRU as Record<string, unknown>);
  const stored = 'Viber registration session expired (6: receiverNotSubscribed)';
  assert.match(deliveryReason(stored, en), /^Not delivered: Viber registration session expired: /);
  assert.match(deliveryReason(stored, ru), /^Не доставлено: Сессия регистрации Viber истекла: /);
  assert.equal(deliveryReason('user device not supported', en), 'Not delivered: user device not supported');
  assert.equal(deliveryReason(null, en), 'Not delivered; the provider gave no reason');
});
