import type { Language } from './schemas/users.ts';

/**
 * What an anonymous site visitor is called until they give a name (issue 36): 'Visitor #4821' (Russian organisations:
 * 'Посетитель #4821'), the number taken from the visitor's id, so the same visitor keeps it and the lists, toasts and
 * the clients list can tell visitors apart.
 */
export function visitorName(visitorId: string, language: Language): string {
  let h = 2166136261;
  for (let i = 0; i < visitorId.length; i++) h = Math.imul(h ^ visitorId.charCodeAt(i), 16777619);
  const n = 1000 + ((h >>> 0) % 9000);
  return `${language === 'rus' ? 'Посетитель' : 'Visitor'} #${n}`;
}

/**
 * A name that stands in for none (an anonymous visitor's, including the bare 'Visitor' of earlier versions), as a
 * PostgreSQL regular expression: such names never suggest a merge.
 */
export const PLACEHOLDER_NAME_SQL = '^(Visitor|Посетитель)( #[0-9]+)?$';
