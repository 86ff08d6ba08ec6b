import { Badge, NavLink, Stack } from '@mantine/core';
import {
  IconActivityHeartbeat,
  IconAddressBook,
  IconChartBar,
  IconClockExclamation,
  IconLogout,
  IconMessagePlus,
  IconMessages,
  IconSearch,
  IconSettings,
  IconUsers,
  IconUsersGroup,
  IconWallet,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useChatCounters } from '../features/chats/api.ts';
import { useTranslation } from '../shared/i18n/index.ts';
import { useAccess, useLogout } from './session.tsx';

const FILTERS = [
  { filter: 'assigned', key: 'menu.inProgress' },
  { filter: 'waiting', key: 'menu.waiting' },
  { filter: 'closed', key: 'menu.closed' },
] as const;

/** The §2.6 main menu, showing only what the user's rights allow (§6). */
export function AdminNav({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const { can, has } = useAccess();
  const logout = useLogout();
  const counters = useChatCounters();
  const filter = new URLSearchParams(search).get('filter') ?? 'assigned';
  const at = (prefix: string) => pathname.startsWith(prefix);

  const item = (to: string, label: string, icon: React.ReactNode) => (
    <NavLink
      component={Link}
      to={to}
      label={label}
      leftSection={icon}
      active={at(to.replace(/\/(all|report)$/, ''))}
      onClick={onNavigate}
      variant="light"
      style={{ borderRadius: 8 }}
    />
  );

  return (
    <Stack gap={2} component="nav" aria-label={t('menu.mainNav')}>
      <NavLink
        label={t('menu.chatCenter')}
        leftSection={<IconMessages size={20} stroke={1.6} />}
        defaultOpened
        childrenOffset={34}
        style={{ borderRadius: 8 }}
      >
        {FILTERS.map((f) => (
          <NavLink
            key={f.filter}
            component={Link}
            to={`/admin/chats?filter=${f.filter}`}
            label={t(f.key)}
            active={pathname === '/admin/chats' && filter === f.filter}
            onClick={onNavigate}
            style={{ borderRadius: 8 }}
            rightSection={
              counters?.[f.filter] ? (
                <Badge size="sm" variant="filled" circle={counters[f.filter] < 10}>
                  {counters[f.filter]}
                </Badge>
              ) : null
            }
          />
        ))}
        {has('OPTION_EXPIRING') &&
          item(
            '/admin/chats/expired',
            t('workspace.expiredTitle'),
            <IconClockExclamation size={18} stroke={1.6} />,
          )}
        {item('/admin/chats/create', t('workspace.createTitle'), <IconMessagePlus size={18} stroke={1.6} />)}
      </NavLink>
      {has('OPTION_EXTENDED_SEARCH') &&
        item('/admin/expanded-search', t('menu.search'), <IconSearch size={20} stroke={1.6} />)}
      {has('OPTION_PROFILE') &&
        item('/admin/clients', t('clientProfiles.clientsTitle'), <IconAddressBook size={20} stroke={1.6} />)}
      {item('/admin/reports/report', t('menu.reports'), <IconChartBar size={20} stroke={1.6} />)}
      {can('AUTHORITY_ALL_STAT') &&
        item('/admin/monitoring', t('menu.monitoring'), <IconActivityHeartbeat size={20} stroke={1.6} />)}
      {(can('RIGHT_ACCOUNT_CONTROL') || can('AUTHORITY_TEAMS_UPDATE')) &&
        item('/admin/users/all', t('menu.users'), <IconUsers size={20} stroke={1.6} />)}
      {item('/admin/teams/all', t('menu.teams'), <IconUsersGroup size={20} stroke={1.6} />)}
      {item('/admin/preferences', t('menu.preferences'), <IconSettings size={20} stroke={1.6} />)}
      {can('AUTHORITY_FINANCE') &&
        item('/admin/finance', t('menu.finance'), <IconWallet size={20} stroke={1.6} />)}
      <NavLink
        component="button"
        label={t('menu.logout')}
        leftSection={<IconLogout size={20} stroke={1.6} />}
        onClick={() => void logout()}
        mt="md"
        c="dimmed"
        style={{ borderRadius: 8 }}
        data-testid="logout"
      />
    </Stack>
  );
}
