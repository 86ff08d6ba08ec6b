import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { loadLocale, storedLanguage } from '../shared/i18n/index.ts';

type Module = Record<string, unknown>;

/** Lazy screen: the feature's chunk loads when its route is first visited. */
export const screen =
  (load: () => Promise<Module>, name: string): RouteObject['lazy'] =>
  async () => ({ Component: (await load())[name] as ComponentType });

/**
 * The module loader with all of the current language's texts (i18n/parts.ts): for the admin shell and any other
 * page outside it that reads namespaces of the signed-in app; the public pages load only the public part.
 */
export const withAllTexts =
  (load: () => Promise<Module>): (() => Promise<Module>) =>
  async () =>
    (await Promise.all([load(), loadLocale(storedLanguage())]))[0];
