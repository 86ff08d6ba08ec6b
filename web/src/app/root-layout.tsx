import { Suspense, useEffect, useMemo } from 'react';
import { matchRoutes, Outlet, type RouteObject, useLocation } from 'react-router';
import { useTranslation } from '../shared/i18n/index.ts';
import { setPageTitle } from '../shared/title.ts';
import { FullLoader } from '../shared/ui/full-loader.tsx';
import { ConnectionNotice } from './connection-notice.tsx';

/** `nestedTitles`: the route's own table (loaded with it) names its pages with a TitleManager of its own. */
type Handle = { title?: string; icon?: string; nestedTitles?: boolean };

/**
 * Title and favicon per route (§2.1): the deepest route that names one wins; default "SmartConnect". `basename`:
 * the path a descendant route table (admin-routes.tsx) is mounted at.
 */
export function TitleManager({ routes, basename }: { routes: RouteObject[]; basename?: string }) {
  const location = useLocation();
  const matches = useMemo(() => matchRoutes(routes, location, basename) ?? [], [routes, location, basename]);
  const { t, i18n } = useTranslation();
  const nested = (matches.at(-1)?.route.handle as Handle | undefined)?.nestedTitles === true;
  const handle = [...matches].reverse().find((m) => (m.route.handle as Handle | undefined)?.title)?.route
    .handle as Handle | undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language changes the translated title
  useEffect(() => {
    if (!nested) setPageTitle(handle?.title ? t(handle.title) : undefined, handle?.icon);
  }, [nested, handle, t, i18n.language]);
  return null;
}

export function RootLayout() {
  return (
    <>
      <ConnectionNotice />
      <Suspense fallback={<FullLoader />}>
        <Outlet />
      </Suspense>
    </>
  );
}
