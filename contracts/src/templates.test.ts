import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIELD_MESSAGES } from './messages.ts';
import { templateCreateSchema } from './schemas/templates.ts';
import { fillTemplate, placeholder, TEMPLATE_VARIABLES, templateParts } from './templates.ts';

test('fillTemplate: every variable, repeated, with unknown words kept', () => {
  const text =
    'Hello {client_name}, I am {operator_name} from {channel} ({date}). Bye {client_name} {unknown}';
  const filled = fillTemplate(text, {
    client_name: 'Ann',
    operator_name: 'Oleg',
    channel: 'Website chat',
    date: '24.11.2026',
  });
  assert.equal(filled, 'Hello Ann, I am Oleg from Website chat (24.11.2026). Bye Ann {unknown}');
});

test('fillTemplate: a missing value leaves nothing; text without variables is unchanged', () => {
  assert.equal(fillTemplate('Hi {client_name}!', {}), 'Hi !');
  assert.equal(fillTemplate('No variables {here}', { client_name: 'x' }), 'No variables {here}');
  // A value that looks like a placeholder is not filled again.
  assert.equal(
    fillTemplate('{client_name} {date}', { client_name: '{date}', date: 'today' }),
    '{date} today',
  );
});

test('templateParts splits text and variables for the editor chips', () => {
  assert.deepEqual(templateParts('Hi {client_name}, {x} {date}'), [
    { text: 'Hi ' },
    { variable: 'client_name' },
    { text: ', {x} ' },
    { variable: 'date' },
  ]);
  for (const v of TEMPLATE_VARIABLES) assert.deepEqual(templateParts(placeholder(v)), [{ variable: v }]);
});

test('§5: a template without a category says a category must be chosen', () => {
  for (const categoryId of [undefined, null, '', 'nope']) {
    const r = templateCreateSchema.safeParse({ text: 'Hello', categoryId });
    assert.equal(r.success, false);
    assert.equal(r.error?.issues[0]?.message, FIELD_MESSAGES.categoryMustBeChosen);
  }
});
