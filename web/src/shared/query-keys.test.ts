import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// React Query keys come from the features' keys.ts factories (and the few shared constants), never inline arrays.
const root = fileURLToPath(new URL('..', import.meta.url));
const methods = [
  'getQueryData',
  'setQueryData',
  'getQueriesData',
  'setQueriesData',
  'getQueryState',
  'invalidateQueries',
  'removeQueries',
  'cancelQueries',
  'refetchQueries',
  'resetQueries',
  'fetchQuery',
  'prefetchQuery',
  'fetchInfiniteQuery',
  'prefetchInfiniteQuery',
  'ensureQueryData',
  'ensureInfiniteQueryData',
];
const inline = new RegExp(`queryKey:\\s*\\[|\\b(?:${methods.join('|')})\\s*(?:<[^()]*>)?\\(\\s*\\[`, 'g');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    const checked = /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') && e.name !== 'keys.ts';
    return checked ? [path] : [];
  });
}

test('no inline React Query key arrays outside keys.ts', () => {
  const found: string[] = [];
  for (const file of sources(root)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(inline)) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push(`${relative(root, file)}:${line}: ${m[0].replace(/\s+/g, ' ')}`);
    }
  }
  assert.deepEqual(found, [], 'Use a key factory from a keys.ts instead of an inline array.');
});
