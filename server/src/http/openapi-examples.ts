/**
 * Example values made from a route's JSON Schema (issue 34: the API reference shows an example request and answer
 * for each route): the schema's own `examples`, `default` or `const` first, else the first of an `enum`, else a
 * value of the type and format. Nested objects keep their required properties and at most a few optional ones, so an
 * example stays readable.
 */
type Schema = Record<string, unknown>;

const OPTIONAL_SHOWN = 4;
const MAX_DEPTH = 6;

function byFormat(format: unknown, name: string): string {
  switch (format) {
    case 'uuid':
      return '0192f1c4-7c1e-7a3b-9d2e-5f6a7b8c9d0e';
    case 'date-time':
      return '2026-11-28T09:30:00.000Z';
    case 'date':
      return '2026-11-28';
    case 'email':
      return 'ann@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    default:
      return /id$/i.test(name)
        ? '0192f1c4-7c1e-7a3b-9d2e-5f6a7b8c9d0e'
        : /url$/i.test(name)
          ? 'https://example.com/'
          : /name/i.test(name)
            ? 'Ann Lee'
            : 'text';
  }
}

export function exampleOf(schema: unknown, name = '', depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return null;
  const s = schema as Schema;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length) {
      const first = list.find((x) => (x as Schema)?.type !== 'null') ?? list[0];
      return exampleOf(first, name, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const keys = Object.keys(props);
      const shown = [
        ...keys.filter((k) => required.has(k)),
        ...keys.filter((k) => !required.has(k)).slice(0, OPTIONAL_SHOWN),
      ];
      // A record with known keys (zod's record of an enum): every required key, valued as additionalProperties.
      const more =
        typeof s.additionalProperties === 'object' ? [...required].filter((k) => !(k in props)) : [];
      return Object.fromEntries([
        ...shown.map((k) => [k, exampleOf(props[k], k, depth + 1)]),
        ...more.map((k) => [k, exampleOf(s.additionalProperties, k, depth + 1)]),
      ]);
    }
    case 'array':
      return s.items ? [exampleOf(s.items, name, depth + 1)] : [];
    case 'integer':
    case 'number':
      // A plain integer's minimum is the safest integer's (zod's .int()): not an example anyone would send.
      return typeof s.minimum === 'number' && s.minimum > Number.MIN_SAFE_INTEGER ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return byFormat(s.format, name);
    default:
      return null;
  }
}

/**
 * An example body of an event webhook (the API reference shows one per event type): the envelope, with an example
 * of the type's `data` made from its JSON Schema.
 */
export function webhookExampleOf(type: string, dataSchema: unknown) {
  return {
    id: '1024',
    type,
    createdAt: '2026-11-28T09:30:00.000Z',
    organisationId: '0192f1c4-7c1e-7a3b-9d2e-5f6a7b8c9d0e',
    data: exampleOf(dataSchema, 'data'),
  };
}
