/**
 * Date formatters, one per locale and options: building an Intl.DateTimeFormat costs far more than formatting with
 * it, and the chat center formats every visible row and message again on each render (a busy chat: many a second).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}
