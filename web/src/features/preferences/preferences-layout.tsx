import { Grid, NavLink, Paper } from '@mantine/core';
import type { Right } from '@smartconnect/contracts';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess } from '../../shared/session.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';

/** The settings menu of §2.6, in its order; each item shows only with its §6 right. */
const ITEMS: { path: string; key: string; right?: Right; label?: string }[] = [
  { path: 'organisation', key: 'organisation', right: 'RIGHT_ACCOUNT_CONTROL', label: 'orgSettings.menu' },
  { path: 'channels', key: 'channels', right: 'AUTHORITY_SERVICE_ACCOUNT' },
  { path: 'roles', key: 'roles', right: 'AUTHORITY_ROLE_MODIFY' },
  { path: 'companies', key: 'companies', right: 'RIGHT_OBSERVER' },
  { path: 'statuses', key: 'statuses', right: 'AUTHORITY_PROFILE_STATUS' },
  { path: 'templates', key: 'templates', right: 'AUTHORITY_TEAM_TEMPLATE' },
  { path: 'knowledge-base', key: 'knowledgeBase', right: 'AUTHORITY_TEAM_TEMPLATE' },
  { path: 'chat-bots', key: 'chatBots', right: 'AUTHORITY_SERVICE_ACCOUNT' },
  { path: 'extensions', key: 'extensions', right: 'AUTHORITY_INTEGRATION' },
  { path: 'black-list', key: 'blackList' },
  { path: 'merge-contacts', key: 'mergeContacts' },
  { path: 'categories', key: 'categories', right: 'AUTHORITY_CHAT_SESSION_CATEGORY' },
  { path: 'plans', key: 'plans', right: 'RIGHT_OBSERVER' },
  { path: 'web-vitals', key: 'webVitals', right: 'RIGHT_OBSERVER' },
  { path: 'landing-requests', key: 'landingRequests', right: 'RIGHT_OBSERVER', label: 'landing.title' },
];

function useItems() {
  const { can } = useAccess();
  return ITEMS.filter((i) => !i.right || can(i.right));
}

export function PreferencesLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = useItems();
  return (
    <>
      <PageHeader title={t('preferences.title')} />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Paper p="xs">
            {items.map((i) => (
              <NavLink
                key={i.path}
                component={Link}
                to={`/admin/preferences/${i.path}`}
                label={t(i.label ?? `preferences.${i.key}`)}
                active={pathname.startsWith(`/admin/preferences/${i.path}`)}
                style={{ borderRadius: 8 }}
              />
            ))}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Outlet />
        </Grid.Col>
      </Grid>
    </>
  );
}

/** /admin/preferences opens the first settings page the user may see. */
export function PreferencesIndex() {
  const items = useItems();
  // Roles is the first settings page already built; otherwise the first one in the menu's order.
  const first = items.find((i) => i.path === 'roles') ?? items[0];
  return <Navigate to={`/admin/preferences/${first?.path ?? 'black-list'}`} replace />;
}
