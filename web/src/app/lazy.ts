import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

type Module = Record<string, unknown>;

/** Lazy screen: the feature's chunk loads when its route is first visited. */
export const screen =
  (load: () => Promise<Module>, name: string): RouteObject['lazy'] =>
  async () => ({ Component: (await load())[name] as ComponentType });
