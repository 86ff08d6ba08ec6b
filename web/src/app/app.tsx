import { MantineProvider } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { i18n } from '../shared/i18n/index.ts';
import { NotificationsHost } from './notifications-host.tsx';
import { router } from './router.tsx';
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
        <RouterProvider router={router} />
      </MantineProvider>
    </I18nextProvider>
  );
}
