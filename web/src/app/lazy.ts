import { type ComponentType, createElement, lazy } from 'react';
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

/**
 * The route table for the declarative router (useRoutes): each `lazy` route gets an element that loads its screen
 * with React.lazy (the nearest Suspense shows the loader: root-layout.tsx, the admin shell); the rest as it is.
 */
export function declarativeRoutes(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const { lazy: load, children, ...rest } = route as RouteObject & { lazy?: unknown };
    const out = { ...rest } as RouteObject;
    if (typeof load === 'function') {
      const Screen = lazy(async () => ({
        default: ((await (load as () => Promise<{ Component?: ComponentType }>)()).Component ??
          (() => null)) as ComponentType,
      }));
      out.element = createElement(Screen);
    }
    if (children) (out as { children?: RouteObject[] }).children = declarativeRoutes(children);
    return out;
  });
}
