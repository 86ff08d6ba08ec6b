import { MantineProvider } from '@mantine/core';
import { useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, useLocation, useNavigate, useRoutes } from 'react-router';
import { i18n } from '../shared/i18n/index.ts';
import { setNavigator } from '../shared/navigate.ts';
import { declarativeRoutes } from './lazy.ts';
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
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="light">
        <NotificationsHost />
        <BrowserRouter>
          <Routes />
        </BrowserRouter>
      </MantineProvider>
    </I18nextProvider>
  );
}

const table = declarativeRoutes(routes);

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
