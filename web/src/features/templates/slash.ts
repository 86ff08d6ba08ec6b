/**
 * The '/' quick search: a message that is '/' and one line after it searches the templates by that line; a '/' later
 * in the text, or a second line, is just text.
 */
export function slashQuery(text: string): string | null {
  return /^\/[^\n]*$/.test(text) ? text.slice(1) : null;
}
