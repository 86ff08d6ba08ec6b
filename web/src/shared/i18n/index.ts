import type { Language } from '@smartconnect/contracts';
import { FIELD_MESSAGES } from '@smartconnect/contracts/constants';
import { useSyncExternalStore } from 'react';
import { LANG_KEY } from '../storage.ts';
import type { LocalePart } from './parts.ts';
import { type TFunction, Translator } from './translator.ts';

export type { TFunction } from './translator.ts';

/** `sc-lang` values (§1, §9) and the locales they select. */
export const LOCALES: Record<Language, string> = { eng: 'en-GB', rus: 'ru-RU' };

export function storedLanguage(): Language {
  const value = localStorage.getItem(LANG_KEY);
  return value === 'rus' ? 'rus' : 'eng';
}

/**
 * Each locale is two chunks (parts.ts: the public pages' namespaces, and the rest for the signed-in app), loaded
 * when first used (both locales are complete, so only the language in use is downloaded): main.tsx renders once
 * the stored language's public part is in; the admin shell (and any page that needs more) loads all of it first;
 * a language switch loads the parts already in use of the other language first.
 */
const loaders: Record<Language, Record<LocalePart, () => Promise<Record<string, unknown>>>> = {
  eng: {
    public: () => import('./en-gb.ts?part=public').then((m) => m.enGB),
    admin: () => import('./en-gb.ts?part=admin').then((m) => m.enGB),
  },
  rus: {
    public: () => import('./ru-ru.ts?part=public').then((m) => m.ruRU),
    admin: () => import('./ru-ru.ts?part=admin').then((m) => m.ruRU),
  },
};

const loaded = new Set<string>();
/** The parts in use: a language switch loads these. */
const inUse = new Set<LocalePart>(['public']);

/** Loads the language's texts: all of them (the default), or only the public pages' part. */
export async function loadLocale(lang: Language, which: 'all' | 'public' = 'all'): Promise<void> {
  const parts: LocalePart[] = which === 'all' ? ['public', 'admin'] : ['public'];
  for (const part of parts) inUse.add(part);
  const lng = LOCALES[lang];
  await Promise.all(
    parts.map(async (part) => {
      if (loaded.has(`${lng}:${part}`)) return;
      const texts = await loaders[lang][part]();
      i18n.addTexts(lng, texts);
      loaded.add(`${lng}:${part}`);
    }),
  );
}

/** The texts and `t` (translator.ts); English is the fallback of a missing key. */
export const i18n = new Translator(LOCALES[storedLanguage()], 'en-GB');

const subscribe = (listener: () => void) => i18n.subscribe(listener);
const currentT = () => i18n.t;

/**
 * `t` and the translator for a component: it draws again when the language changes or texts arrive (the admin
 * part of the texts comes after the first render: a page title set meanwhile).
 */
export function useTranslation(): { t: TFunction; i18n: Translator } {
  const t = useSyncExternalStore(subscribe, currentT);
  return { t, i18n };
}

document.documentElement.lang = LOCALES[storedLanguage()];

/** Switches the interface language and remembers it in `sc-lang`. */
export async function setLanguage(lang: Language): Promise<void> {
  localStorage.setItem(LANG_KEY, lang);
  await loadLocale(lang, inUse.has('admin') ? 'all' : 'public');
  document.documentElement.lang = LOCALES[lang];
  i18n.changeLanguage(LOCALES[lang]);
}

const fieldKeyByText = new Map<string, string>(Object.entries(FIELD_MESSAGES).map(([k, v]) => [v, k]));

/**
 * The spec's English field message (from zod or from the server's `error.fields`) in the current language.
 * Any other text (a parser's English, server prose) is never shown: it reads as 'Incorrect value entered'.
 */
export function translateField(message: string | undefined | null): string | undefined {
  if (!message) return undefined;
  const key = fieldKeyByText.get(message) ?? 'incorrectValue';
  return i18n.t(`fields.${key}`);
}

/** The toast text of a §8 error code. */
export function translateError(code: string): string {
  const key = `errors.${code}`;
  return i18n.exists(key) ? i18n.t(key) : i18n.t('errors.unknownException');
}
