import './admin-styles.ts';
// Before any parse of the admin screens (they render inside this layout): shared/zod-csp.ts.
import '../shared/zod-csp.ts';
import { AppShell, Burger, Group, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { BillingBanner } from '../features/billing/billing-banner.tsx';
import { ProblemsBanner } from '../features/channels/problems-banner.tsx';
import { useTranslation } from '../shared/i18n/index.ts';
import { queryClient } from '../shared/query.ts';
import { SectionLoader } from '../shared/ui/full-loader.tsx';
import { Logo } from '../shared/ui/logo.tsx';
import { AdminNav } from './admin-nav.tsx';
import { NotificationsPrompt } from './notifications-prompt.tsx';
import { PresenceBanner, PresenceToggle } from './presence-toggle.tsx';
import { RealtimeProvider } from './realtime.tsx';
import { SessionProvider } from './session.tsx';
import { UserMenu } from './user-menu.tsx';

/**
 * /admin: the profile loads first (SessionProvider), then the shell with the menu the rights allow. Its providers
 * (react-query's among them) and styles live in this chunk, so the public pages never download them.
 */
export function AdminLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <ModalsProvider>
        <SessionProvider>
          <RealtimeProvider>
            <Shell />
          </RealtimeProvider>
        </SessionProvider>
      </ModalsProvider>
    </QueryClientProvider>
  );
}

function Shell() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="xl"
    >
      <a className="sc-skip-link" href="#main">
        {t('a11y.skipToContent')}
      </a>
      <AppShell.Header px="lg">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('a11y.navigation')}
              aria-expanded={opened}
            />
            {/* On a phone the header needs the room for presence and the user menu. */}
            <Logo size="sm" nameFrom="xs" />
          </Group>
          <NotificationsPrompt />
          <Group gap="md" wrap="nowrap">
            <PresenceToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <AppShell.Section grow component={ScrollArea}>
          <AdminNav onNavigate={close} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <div style={{ maxWidth: 1280, margin: '0 auto' }}>
          <BillingBanner />
          <ProblemsBanner />
          <PresenceBanner />
          <Suspense fallback={<SectionLoader />}>
            <Outlet />
          </Suspense>
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
