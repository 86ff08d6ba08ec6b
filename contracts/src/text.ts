/**
 * Text a database can store. PostgreSQL refuses the NUL character in text and JSON, and a lone UTF-16 surrogate
 * (half of a pair, which JSON may carry as `"\ud800"`) has no UTF-8 form. Forms refuse such strings with a field
 * error (the server's route layer checks every parsed body, query and path); text from a messaging provider is
 * cleaned instead, so a customer's message is never lost (sanitizeText, sanitizeStrings).
 */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';

/** True when the string has no NUL and no lone surrogate. */
export function isStorableText(s: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  return !s.includes(NUL) && !LONE_SURROGATE.test(s);
}

/** The string made storable: NUL dropped, each lone surrogate replaced by U+FFFD (what String#toWellFormed does). */
export function sanitizeText(s: string): string {
  if (isStorableText(s)) return s;
  return s.replaceAll(NUL, '').replace(LONE_SURROGATE, REPLACEMENT);
}

/** Deeper than this, sanitizeStrings leaves a value as it is: no payload schema reads that deep. */
const SANITIZE_DEPTH = 32;

/**
 * Every string of a JSON-like value (object keys too) passed through sanitizeText; the value itself when nothing
 * needed cleaning. Channel adapters use it on provider payloads, and ingest on every InboundMessage.
 */
export function sanitizeStrings<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return sanitizeText(value) as T;
  if (value === null || typeof value !== 'object' || depth > SANITIZE_DEPTH) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const c = sanitizeStrings(v, depth + 1);
      if (c !== v) changed = true;
      return c;
    });
    return (changed ? out : value) as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = sanitizeText(k);
    const c = sanitizeStrings(v, depth + 1);
    if (key !== k || c !== v) changed = true;
    out[key] = c;
  }
  return (changed ? out : value) as T;
}

/** Where a found string sits: keys from the root, array indexes as strings (as field errors name them). */
export type ValuePath = string[];

/**
 * Paths of the strings (values, and object keys) that cannot be stored, at most `max`. Walks without recursion
 * and keeps only containers on its stack, so neither deep nesting nor a long array costs much.
 */
export function unstorableStrings(value: unknown, max = 20): ValuePath[] {
  type Node = { value: object; key: string; parent: Node | null };
  const pathOf = (node: Node | null, last: string): ValuePath => {
    const path = [last];
    for (let n = node; n?.parent; n = n.parent) path.push(n.key);
    return path.reverse();
  };
  if (typeof value === 'string') return isStorableText(value) ? [] : [[]];
  const found: ValuePath[] = [];
  const isContainer = (v: unknown): v is object =>
    v !== null && typeof v === 'object' && !ArrayBuffer.isView(v);
  const stack: Node[] = isContainer(value) ? [{ value, key: '', parent: null }] : [];
  while (stack.length && found.length < max) {
    const node = stack.pop()!;
    const children: Node[] = [];
    for (const [k, child] of Object.entries(node.value)) {
      if (!isStorableText(k) || (typeof child === 'string' && !isStorableText(child)))
        found.push(pathOf(node, k));
      else if (isContainer(child)) children.push({ value: child, key: k, parent: node });
    }
    // Reversed, so the first child is walked first.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found.slice(0, max);
}
