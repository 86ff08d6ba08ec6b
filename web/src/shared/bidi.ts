/**
 * Bidirectional-text isolation of user-typed text (names, messages): a right-to-left override or an
 * isolate control inside a name must stay inside it, never reverse the interface around it (issue point 10).
 */

const LRI_RLI_FSI = /[\u2066-\u2068]/;
const PDI = '\u2069';
const FSI = '\u2068';

/**
 * The text with its isolates balanced: a pop (PDI) with nothing to close is dropped, so it cannot end the
 * isolation we wrap the text in, and an isolate left open is closed at the end. Embeddings and overrides
 * (U+202A..U+202E) need no care: an isolate ends every one opened inside it.
 */
export function balanceIsolates(text: string): string {
  let depth = 0;
  let out = '';
  for (const ch of text) {
    if (LRI_RLI_FSI.test(ch)) depth++;
    else if (ch === PDI) {
      if (depth === 0) continue;
      depth--;
    }
    out += ch;
  }
  return out + PDI.repeat(depth);
}

/**
 * User text for a plain string (a sentence built by i18n, an aria-label, the document title): wrapped in
 * First Strong Isolate ... Pop Directional Isolate, the Unicode equivalent of `<bdi>`. In markup use
 * `<UserText>` instead.
 */
export function isolate(text: string | null | undefined): string {
  return text ? `${FSI}${balanceIsolates(text)}${PDI}` : '';
}

/** Letters and digits only (no markup, no bidi controls), so that `Jane <b>Doe</b>` shows JD on an avatar. */
export const initialsOf = (name: string | null | undefined) =>
  (name ?? '').replace(/[^\p{L}\p{N}\s]/gu, ' ').trim() || '?';
