import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import * as contracts from './index.ts';
import { FIELD_MESSAGES } from './messages.ts';

const known = new Set<string>(Object.values(FIELD_MESSAGES));
// Path-id schemas answer 404 before any message is shown (route.ts), so their text never reaches a user.
const PATH_ONLY = new Set(['messageParams', 'idParams']);

/** Every request schema of the contracts: what the server validates bodies and query strings with. */
const schemas: [string, z.ZodType][] = [];
for (const [name, value] of Object.entries(contracts) as [string, unknown][]) {
  if (name.endsWith('Schema') && value instanceof z.ZodType && !PATH_ONLY.has(name))
    schemas.push([name, value]);
}

const wrongValues: unknown[] = [null, 12345, 'x', true, [], {}, '', -1, 1.5, 'not-a-uuid'.repeat(40)];

test('request schemas exist to check', () => {
  assert.ok(schemas.length >= 15, `found ${schemas.length}`);
});

test('whatever a client sends, every field error is one of the spec’s messages (never the library’s text)', () => {
  const stray: string[] = [];
  for (const [name, schema] of schemas) {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, unknown>;
      anyOf?: { properties?: Record<string, unknown> }[];
    };
    const keys = new Set([
      ...Object.keys(json.properties ?? {}),
      ...(json.anyOf ?? []).flatMap((s) => Object.keys(s.properties ?? {})),
    ]);
    const inputs: unknown[] = [{}, null, 'text', []];
    for (const key of keys) for (const v of wrongValues) inputs.push({ [key]: v });
    for (const input of inputs) {
      const res = schema.safeParse(input);
      if (res.success) continue;
      for (const issue of res.error.issues) {
        if (!known.has(issue.message)) stray.push(`${name} ${JSON.stringify(input)}: ${issue.message}`);
      }
    }
  }
  assert.deepEqual([...new Set(stray)].slice(0, 40), []);
});
