import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { i18n } from '../shared/i18n/index.ts';
import { queryClient } from '../shared/query.ts';
import { NotificationsHost } from './notifications-host.tsx';
import { router } from './router.tsx';
import { theme } from './theme.ts';

/** Providers every page needs; the admin shell adds its own (modals, session, realtime) in admin-layout.tsx. */
export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="light">
        <QueryClientProvider client={queryClient}>
          <NotificationsHost />
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
