import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitQuoted } from './quoted.ts';

test('the quoted history of a mail is split off with its attribution line', () => {
  assert.deepEqual(
    splitQuoted(
      'Спасибо, получил!\n\nOn Mon, 23 Nov 2026 at 11:00, support@shop.test wrote:\n> Ваш заказ уже в пути.\n> Трек: 123',
    ),
    {
      body: 'Спасибо, получил!',
      quoted: 'On Mon, 23 Nov 2026 at 11:00, support@shop.test wrote:\n> Ваш заказ уже в пути.\n> Трек: 123',
    },
  );
  assert.deepEqual(splitQuoted('Да\n\n23.11.2026, 11:00, Поддержка пишет:\n> Когда удобно?'), {
    body: 'Да',
    quoted: '23.11.2026, 11:00, Поддержка пишет:\n> Когда удобно?',
  });
  assert.deepEqual(splitQuoted('Ok\n\n-----Original Message-----\nFrom: a@b.c\nHi'), {
    body: 'Ok',
    quoted: '-----Original Message-----\nFrom: a@b.c\nHi',
  });
});

test('text without a trailing history, or that is only a quote, stays whole', () => {
  assert.deepEqual(splitQuoted('Hello\n> inline quote\nmy answer'), {
    body: 'Hello\n> inline quote\nmy answer',
    quoted: '',
  });
  assert.deepEqual(splitQuoted('> only a quote'), { body: '> only a quote', quoted: '' });
  assert.deepEqual(splitQuoted('Plain'), { body: 'Plain', quoted: '' });
});
