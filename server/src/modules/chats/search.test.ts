import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snippetParts } from './search.ts';

const S = '\u0002';
const E = '\u0003';

test('marked headline text becomes plain parts, matches flagged, markup kept as characters', () => {
  assert.deepEqual(snippetParts(`Где мой ${S}заказ${E}? <b>${S}orders${E}</b>`), [
    { text: 'Где мой ', match: false },
    { text: 'заказ', match: true },
    { text: '? <b>', match: false },
    { text: 'orders', match: true },
    { text: '</b>', match: false },
  ]);
  assert.deepEqual(snippetParts('no match at all'), [{ text: 'no match at all', match: false }]);
});

test('a long text is cut around the first match, cuts marked with an ellipsis', () => {
  const lead = 'x'.repeat(200);
  const tail = 'y'.repeat(500);
  const parts = snippetParts(`${lead} ${S}word${E} ${tail}`);
  assert.equal(parts[0].text, `…${'x'.repeat(59)} `);
  assert.deepEqual(parts[1], { text: 'word', match: true });
  const all = parts.map((p) => p.text).join('');
  assert.ok(all.endsWith('…'));
  assert.ok(all.length <= 290);
});
