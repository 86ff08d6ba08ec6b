/**
 * The texts are split in two parts per language at build time (vite.config.ts, `localeParts`): the public part,
 * which the public pages (login, recovery, 2FA, sign-up, status and link pages) load before their first render,
 * and the admin part, which the signed-in app loads with its shell. en-gb.ts and ru-ru.ts assemble the namespaces
 * (en-gb/<ns>.ts, ru-ru/<ns>.ts); a namespace listed here goes to the public part, every other one to the admin part.
 * A new public page's texts: its own namespace, listed here (or keys in a listed one, e.g. `pages`).
 */
export const PUBLIC_NAMESPACES: readonly string[] = [
  'common',
  'languages',
  'titles',
  'login',
  'carousel',
  'restore',
  'pages',
  'rating',
  'signup',
  'notices',
  'a11y',
  'fields',
  'errors',
];

export type LocalePart = 'public' | 'admin';
