import { type ComponentType, createElement, use } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
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

const Empty: ComponentType = () => null;

/** A component whose chunk loads once, on first render or earlier through `preload`. */
export type Preloadable<P extends object> = ComponentType<P> & { preload: () => Promise<ComponentType<P>> };

/**
 * A component whose chunk loads once: it suspends (the nearest Suspense shows the loader) only while its chunk is
 * on the way, and draws at once when it has already arrived (preloaded). React.lazy would suspend on its first
 * render even then, and a suspended boundary shows its content again only after React's fallback throttle (300 ms).
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let started: Promise<ComponentType<P>> | null = null;
  let loaded: ComponentType<P> | null = null;
  const preload = () => {
    started ??= load().then((c) => {
      loaded = c;
      return c;
    });
    return started;
  };
  const Component = (props: P) => createElement(loaded ?? use(preload()), props);
  return Object.assign(Component, { preload });
}

const preloaders = new WeakMap<RouteObject, () => Promise<unknown>>();

/**
 * Starts loading the chunks of every screen on the path at once (the admin shell and the page inside it), instead of
 * one after the other as each renders; the screens then take the same requests.
 */
export function preloadRoutes(table: RouteObject[], pathname: string): void {
  for (const { route } of matchRoutes(table, pathname) ?? [])
    preloaders
      .get(route)?.()
      .catch(() => undefined);
}

/**
 * The route table for the declarative router (useRoutes): each `lazy` route gets an element that loads its screen
 * once (preloadable; the nearest Suspense shows the loader: root-layout.tsx, the admin shell); the rest as it is.
 */
export function declarativeRoutes(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const { lazy: load, children, ...rest } = route as RouteObject & { lazy?: unknown };
    const out = { ...rest } as RouteObject;
    if (typeof load === 'function') {
      const Screen = preloadable(
        async () => (await (load as () => Promise<{ Component?: ComponentType }>)()).Component ?? Empty,
      );
      out.element = createElement(Screen);
      preloaders.set(out, Screen.preload);
    }
    if (children) (out as { children?: RouteObject[] }).children = declarativeRoutes(children);
    return out;
  });
}
