import assert from 'node:assert/strict';
import { test } from 'node:test';
import { balanceIsolates, initialsOf, isolate } from './bidi.ts';

const RLO = '\u202E';
const FSI = '\u2068';
const PDI = '\u2069';

test('isolate wraps user text in First Strong Isolate ... Pop Directional Isolate', () => {
  assert.equal(isolate(`${RLO}evil`), `${FSI}${RLO}evil${PDI}`);
  assert.equal(isolate(''), '');
  assert.equal(isolate(null), '');
});

test('a stray pop in user text cannot end the isolation around it; an open isolate is closed', () => {
  assert.equal(balanceIsolates(`${PDI}${RLO}evil`), `${RLO}evil`);
  assert.equal(balanceIsolates('\u2067abc'), `\u2067abc${PDI}`);
  assert.equal(balanceIsolates(`\u2066a${PDI}${PDI}b`), `\u2066a${PDI}b`);
  assert.equal(isolate(`x${PDI}${RLO}y`), `${FSI}x${RLO}y${PDI}`);
});

test('initials leave out markup and bidi controls', () => {
  assert.equal(initialsOf(`${RLO}evil name`), 'evil name');
  assert.equal(initialsOf('Jane <b>Doe</b>').replace(/\s+/g, ' '), 'Jane b Doe b');
  assert.equal(initialsOf(RLO), '?');
});
