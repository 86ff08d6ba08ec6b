import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CategoryRow } from './queries.ts';
import { buildTree, countNodes, narrow, pruneFor } from './tree.ts';

const at = new Date('2026-01-01T00:00:00Z');
const row = (
  id: string,
  name: string,
  parent: string | null,
  level: 1 | 2 | 3,
  teams: string[] = [],
): CategoryRow => ({
  id,
  name,
  parent_id: parent,
  level,
  team_ids: teams,
  created_at: at,
  updated_at: at,
});

test('narrow: an empty list keeps the parent’s teams; a list keeps only what the parent allows', () => {
  assert.equal(narrow(null, []), null);
  assert.deepEqual(narrow(null, ['a']), ['a']);
  assert.deepEqual(narrow(['a', 'b'], []), ['a', 'b']);
  assert.deepEqual(narrow(['a', 'b'], ['b', 'c']), ['b']);
});

test('buildTree: paths, availability down the levels, deleted teams dropped; pruneFor a team', () => {
  const rows = [
    row('1', 'Delivery', null, 1),
    row('2', 'Late', '1', 2, ['sales', 'gone']),
    row('3', 'A week', '2', 3),
    row('4', 'Bugs', null, 1, ['support']),
    row('5', 'Crash', '4', 2, ['sales']),
  ];
  const tree = buildTree(rows, new Set(['sales', 'support']));
  assert.deepEqual(
    tree.roots.map((r) => r.name),
    ['Delivery', 'Bugs'],
  );
  assert.deepEqual(tree.byId.get('3')?.path, ['Delivery', 'Late', 'A week']);
  assert.deepEqual(tree.byId.get('2')?.teamIds, ['sales']);
  assert.deepEqual(tree.byId.get('3')?.availableTeamIds, ['sales']);
  // Crash asks for Sales under a Support-only category: nobody may use it.
  assert.deepEqual(tree.byId.get('5')?.availableTeamIds, []);
  assert.equal(countNodes(tree.roots), 5);
  const sales = pruneFor(tree.roots, 'sales');
  assert.deepEqual(
    sales.map((n) => [n.name, n.children.map((c) => c.name)]),
    [['Delivery', ['Late']]],
  );
  assert.equal(countNodes(pruneFor(tree.roots, 'support')), 2);
});
