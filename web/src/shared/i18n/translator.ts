/**
 * The app's texts and `t()` (issue 12: the login page downloads at most 150 KB; i18next and react-i18next were
 * ~15 KB of it). What the app used of i18next, with the same results: keys as dotted paths in one tree per locale,
 * the fallback locale for a key the current one lacks, the key itself when neither has it, `{{name}}` placeholders
 * from the options (not escaped: React escapes; null reads as nothing, a value not given leaves the placeholder), plural forms by `count`
 * (`key_one`, `key_few`, `key_many`, `key_other`, chosen by the locale's Intl.PluralRules, then the bare `key`),
 * and `defaultValue` (or a string in place of the options) for a key that is not there. No nesting (`$t(...)`), formats or contexts: the texts use none.
 */
export type TOptions = { count?: number; defaultValue?: string } & Record<string, unknown>;
/** A string instead of options is the default value (i18next's shorthand). */
export type TFunction = (key: string, options?: TOptions | string) => string;

type Tree = { [key: string]: string | Tree };

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** Merges `from` into `into` (objects deeply, strings overwritten), as i18next's addResourceBundle(deep, overwrite). */
function merge(into: Tree, from: Tree): void {
  for (const [k, v] of Object.entries(from)) {
    const here = into[k];
    if (typeof v === 'object' && v && typeof here === 'object') merge(here, v);
    else into[k] = typeof v === 'object' ? structuredClone(v) : v;
  }
}

export class Translator {
  /** The current locale ('en-GB', 'ru-RU'). */
  language: string;
  /** `t` of the moment: a new function after every change of language or texts, so React redraws what reads it. */
  t: TFunction;
  private readonly texts = new Map<string, Tree>();
  private readonly plurals = new Map<string, Intl.PluralRules>();
  private readonly listeners = new Set<() => void>();

  constructor(
    language: string,
    private readonly fallback: string,
  ) {
    this.language = language;
    this.t = this.fixedT();
  }

  /** Adds (or overwrites) texts of a locale. */
  addTexts(locale: string, texts: Record<string, unknown>): void {
    if (!this.texts.has(locale)) this.texts.set(locale, {});
    merge(this.texts.get(locale)!, texts as Tree);
    this.changed();
  }

  changeLanguage(locale: string): void {
    this.language = locale;
    this.changed();
  }

  /** Whether the key has a text in the current locale or the fallback. */
  exists(key: string, options?: TOptions): boolean {
    return this.resolve(key, options) !== undefined;
  }

  /** Calls `listener` after each change of language or texts; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.t = this.fixedT();
    for (const listener of this.listeners) listener();
  }

  private fixedT(): TFunction {
    return (key, given) => {
      const options = typeof given === 'string' ? { defaultValue: given } : given;
      const text = this.resolve(key, options) ?? options?.defaultValue ?? key;
      return options ? interpolate(text, options) : text;
    };
  }

  private resolve(key: string, options?: TOptions): string | undefined {
    const count = options?.count;
    for (const locale of new Set([this.language, this.fallback])) {
      const tree = this.texts.get(locale);
      if (!tree) continue;
      if (typeof count === 'number') {
        const found = lookup(tree, `${key}_${this.pluralRules(locale).select(count)}`);
        if (found !== undefined) return found;
      }
      const found = lookup(tree, key);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private pluralRules(locale: string): Intl.PluralRules {
    const rules = this.plurals.get(locale) ?? new Intl.PluralRules(locale);
    this.plurals.set(locale, rules);
    return rules;
  }
}

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function interpolate(text: string, values: TOptions): string {
  return text.includes('{{')
    ? text.replace(PLACEHOLDER, (placeholder, name: string) => {
        const value = values[name];
        if (value === undefined) return placeholder;
        return value === null ? '' : String(value);
      })
    : text;
}
