import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { matchRoutes, Outlet, type RouteObject, useLocation } from 'react-router';
import { setPageTitle } from '../shared/title.ts';
import { FullLoader } from '../shared/ui/full-loader.tsx';
import { ConnectionNotice } from './connection-notice.tsx';

type Handle = { title?: string; icon?: string };

/** Title and favicon per route (§2.1): the deepest route that names one wins; default "SmartConnect". */
export function TitleManager({ routes }: { routes: RouteObject[] }) {
  const location = useLocation();
  const matches = useMemo(() => matchRoutes(routes, location) ?? [], [routes, location]);
  const { t, i18n } = useTranslation();
  const handle = [...matches].reverse().find((m) => (m.route.handle as Handle | undefined)?.title)?.route
    .handle as Handle | undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language changes the translated title
  useEffect(() => {
    setPageTitle(handle?.title ? t(handle.title) : undefined, handle?.icon);
  }, [handle, t, i18n.language]);
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
