import { MantineProvider } from '@mantine/core';
import { useEffect } from 'react';
import { BrowserRouter, useLocation, useNavigate, useRoutes } from 'react-router';
import { startCurrentUser } from '../shared/api/current-user.ts';
import { setNavigator } from '../shared/navigate.ts';
import { declarativeRoutes, preloadRoutes } from './lazy.ts';
import { NotificationsHost } from './notifications-host.tsx';
import { TitleManager } from './root-layout.tsx';
import { RouteErrorBoundary } from './route-error.tsx';
import { routes } from './router.tsx';
import { theme } from './theme.ts';

/**
 * Providers every page needs; the admin shell adds its own (react-query, modals, session, realtime) in
 * admin-layout.tsx: the public pages never download react-query.
 */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <NotificationsHost />
      <BrowserRouter>
        <Routes />
      </BrowserRouter>
    </MantineProvider>
  );
}

const table = declarativeRoutes(routes);
// While the entry's texts load: the screens of the opened address and, in the admin area, the session's user.
preloadRoutes(table, window.location.pathname);
startCurrentUser(window.location.pathname);

/** The route table's screens, their titles and error boundary; HTTP handling navigates through this router. */
function Routes() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => setNavigator((to) => void navigate(to)), [navigate]);
  const screen = useRoutes(table);
  return (
    <>
      <TitleManager routes={routes} />
      <RouteErrorBoundary path={location.pathname}>{screen}</RouteErrorBoundary>
    </>
  );
}
