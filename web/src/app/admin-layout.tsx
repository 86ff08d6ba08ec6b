import '../shared/ui/admin-styles.ts';
// Before any parse of the admin screens (they render inside this layout): shared/zod-csp.ts.
import '../shared/zod-csp.ts';
import { ActionIcon, AppShell, Burger, Group, ScrollArea, Tooltip } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { BillingBanner } from '../features/billing/billing-banner.tsx';
import { ProblemsBanner } from '../features/channels/problems-banner.tsx';
import { useTranslation } from '../shared/i18n/index.ts';
import { useLayoutFlag } from '../shared/layout/use-layout-flag.ts';
import { queryClient } from '../shared/query.ts';
import { SessionProvider } from '../shared/session.tsx';
import { SectionLoader } from '../shared/ui/full-loader.tsx';
import { Logo } from '../shared/ui/logo.tsx';
import { AdminNav } from './admin-nav.tsx';
import { NotificationsPrompt } from './notifications-prompt.tsx';
import { PresenceBanner, PresenceToggle } from './presence-toggle.tsx';
import { RealtimeProvider } from './realtime.tsx';
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

/** How the shell frames a screen: the chat center edge to edge, the bot editor alone in the window (issue 36). */
function frameOf(pathname: string): 'page' | 'chat' | 'full' {
  if (pathname === '/admin/chats') return 'chat';
  if (pathname === '/admin/preferences/chat-bots/bot') return 'full';
  return 'page';
}

const NAV_WIDTH = 264;
const RAIL_WIDTH = 72;

function Shell() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const [folded, setFolded] = useLayoutFlag('navCollapsed');
  const frame = frameOf(useLocation().pathname);
  // The rail is a desktop form: on a phone the burger opens the whole menu.
  const desktop = useMediaQuery('(min-width: 48em)') ?? true;
  const rail = folded && desktop;
  // The chat center's panes run edge to edge; the editor keeps a small margin.
  const padding = frame === 'page' ? 'xl' : frame === 'chat' ? 0 : 'xs';
  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{
        width: rail ? RAIL_WIDTH : NAV_WIDTH,
        breakpoint: 'sm',
        collapsed: { mobile: !opened, desktop: frame === 'full' },
      }}
      padding={padding}
    >
      <a className="sc-skip-link" href="#main">
        {t('a11y.skipToContent')}
      </a>
      <AppShell.Header px="lg">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {frame !== 'full' && (
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={t('a11y.navigation')}
                aria-expanded={opened}
              />
            )}
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
      <AppShell.Navbar p={rail ? 'xs' : 'sm'} id="main-nav">
        <AppShell.Section grow component={ScrollArea}>
          <AdminNav onNavigate={close} rail={rail} />
        </AppShell.Section>
        <AppShell.Section visibleFrom="sm" pt="xs">
          <Group justify={rail ? 'center' : 'flex-end'}>
            <Tooltip label={rail ? t('menu.expandMenu') : t('menu.collapseMenu')} position="right">
              <ActionIcon
                variant="subtle"
                color="gray.7"
                size={40}
                onClick={() => setFolded(!folded)}
                aria-label={rail ? t('menu.expandMenu') : t('menu.collapseMenu')}
                aria-expanded={!rail}
                aria-controls="main-nav"
                data-testid="nav-toggle"
              >
                {rail ? (
                  <IconLayoutSidebarLeftExpand size={20} />
                ) : (
                  <IconLayoutSidebarLeftCollapse size={20} />
                )}
              </ActionIcon>
            </Tooltip>
          </Group>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        {/* A column as tall as the window below the header: the chat center and the bot editor take what the banners
            leave, so nothing of them falls below the fold. */}
        <div
          style={{
            maxWidth: frame === 'page' ? 1280 : undefined,
            margin: '0 auto',
            display: 'flex',
            flexDirection: 'column',
            minHeight: padding
              ? `calc(100dvh - 64px - 2 * var(--mantine-spacing-${padding}))`
              : 'calc(100dvh - 64px)',
          }}
        >
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
