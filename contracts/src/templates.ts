/**
 * Template variables: `{client_name}`, `{operator_name}`, `{channel}`, `{date}` in a template's text, filled by the
 * web app from the open chat when the operator inserts the template.
 */
export const TEMPLATE_VARIABLES = ['client_name', 'operator_name', 'channel', 'date'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
export type TemplateValues = Partial<Record<TemplateVariable, string>>;

const PLACEHOLDER = /\{(client_name|operator_name|channel|date)\}/g;

/** The placeholder written into a template's text for a variable. */
export const placeholder = (v: TemplateVariable): string => `{${v}}`;

/** Replaces each known placeholder with its value (an unknown value, e.g. an unnamed client, with nothing); other `{words}` stay as written. */
export function fillTemplate(text: string, values: TemplateValues): string {
  return text.replace(PLACEHOLDER, (_, name: TemplateVariable) => values[name] ?? '');
}

/** Splits a template's text into plain text and variable tokens (the editor shows tokens as chips). */
export function templateParts(text: string): ({ text: string } | { variable: TemplateVariable })[] {
  const parts: ({ text: string } | { variable: TemplateVariable })[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ variable: m[1] as TemplateVariable });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
