import type { Language } from '@smartconnect/contracts';
import { FIELD_MESSAGES } from '@smartconnect/contracts/constants';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANG_KEY } from '../storage.ts';

/** `sc-lang` values (§1, §9) and the locales they select. */
export const LOCALES: Record<Language, string> = { eng: 'en-GB', rus: 'ru-RU' };

export function storedLanguage(): Language {
  const value = localStorage.getItem(LANG_KEY);
  return value === 'rus' ? 'rus' : 'eng';
}

/**
 * Each locale is its own chunk, loaded when it is first used (both are complete, so only the language in use is
 * downloaded): main.tsx renders once the stored language's texts are in; a switch loads the other one first.
 */
const loaders: Record<Language, () => Promise<Record<string, unknown>>> = {
  eng: () => import('./en-gb.ts').then((m) => m.enGB),
  rus: () => import('./ru-ru.ts').then((m) => m.ruRU),
};

export async function loadLocale(lang: Language): Promise<void> {
  const lng = LOCALES[lang];
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  i18n.addResourceBundle(lng, 'translation', await loaders[lang](), true, true);
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: LOCALES[storedLanguage()],
  fallbackLng: 'en-GB',
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});
document.documentElement.lang = LOCALES[storedLanguage()];

/** Switches the interface language and remembers it in `sc-lang`. */
export async function setLanguage(lang: Language): Promise<void> {
  localStorage.setItem(LANG_KEY, lang);
  await loadLocale(lang);
  document.documentElement.lang = LOCALES[lang];
  await i18n.changeLanguage(LOCALES[lang]);
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
