import { ActionIcon, Badge, Indicator, NavLink, Stack, Tooltip } from '@mantine/core';
import {
  IconActivityHeartbeat,
  IconAddressBook,
  IconChartBar,
  IconClockExclamation,
  IconFileImport,
  IconLogout,
  IconMessagePlus,
  IconMessages,
  IconSearch,
  IconSettings,
  IconSpeakerphone,
  IconUsers,
  IconUsersGroup,
  IconWallet,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useChatCounters } from '../features/chats/api.ts';
import { useTranslation } from '../shared/i18n/index.ts';
import { useAccess, useLogout } from '../shared/session.tsx';

const FILTERS = [
  { filter: 'assigned', key: 'menu.inProgress' },
  { filter: 'waiting', key: 'menu.waiting' },
  { filter: 'closed', key: 'menu.closed' },
] as const;

type Entry = { to: string; label: string; icon: React.ReactNode };

/** The §2.6 main menu, showing only what the user's rights allow (§6); `rail` draws it as icons with their names. */
export function AdminNav({ onNavigate, rail = false }: { onNavigate: () => void; rail?: boolean }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const { can, has } = useAccess();
  const logout = useLogout();
  const counters = useChatCounters();
  const filter = new URLSearchParams(search).get('filter') ?? 'assigned';
  const at = (prefix: string) => pathname.startsWith(prefix);
  const active = (to: string) => at(to.replace(/\/(all|report)$/, ''));

  const chatEntries: Entry[] = [
    ...(has('OPTION_EXPIRING')
      ? [
          {
            to: '/admin/chats/expired',
            label: t('workspace.expiredTitle'),
            icon: <IconClockExclamation size={18} stroke={1.6} />,
          },
        ]
      : []),
    {
      to: '/admin/chats/create',
      label: t('workspace.createTitle'),
      icon: <IconMessagePlus size={18} stroke={1.6} />,
    },
  ];
  const entries: Entry[] = [
    ...(has('OPTION_EXTENDED_SEARCH')
      ? [
          {
            to: '/admin/expanded-search',
            label: t('menu.search'),
            icon: <IconSearch size={20} stroke={1.6} />,
          },
        ]
      : []),
    ...(has('OPTION_PROFILE')
      ? [
          {
            to: '/admin/clients',
            label: t('clientProfiles.clientsTitle'),
            icon: <IconAddressBook size={20} stroke={1.6} />,
          },
        ]
      : []),
    { to: '/admin/reports/report', label: t('menu.reports'), icon: <IconChartBar size={20} stroke={1.6} /> },
    ...(can('AUTHORITY_ALL_STAT')
      ? [
          {
            to: '/admin/monitoring',
            label: t('menu.monitoring'),
            icon: <IconActivityHeartbeat size={20} stroke={1.6} />,
          },
        ]
      : []),
    ...(can('AUTHORITY_MAILING')
      ? [
          {
            to: '/admin/mailings',
            label: t('mailings.title'),
            icon: <IconSpeakerphone size={20} stroke={1.6} />,
          },
        ]
      : []),
    ...(can('AUTHORITY_MAILING') && has('OPTION_MAILING')
      ? [
          {
            to: '/admin/sms-imports',
            label: t('smsImport.title'),
            icon: <IconFileImport size={20} stroke={1.6} />,
          },
        ]
      : []),
    ...(can('RIGHT_ACCOUNT_CONTROL') || can('AUTHORITY_TEAMS_UPDATE')
      ? [{ to: '/admin/users/all', label: t('menu.users'), icon: <IconUsers size={20} stroke={1.6} /> }]
      : []),
    { to: '/admin/teams/all', label: t('menu.teams'), icon: <IconUsersGroup size={20} stroke={1.6} /> },
    { to: '/admin/preferences', label: t('menu.preferences'), icon: <IconSettings size={20} stroke={1.6} /> },
    ...(can('AUTHORITY_FINANCE')
      ? [{ to: '/admin/finance', label: t('menu.finance'), icon: <IconWallet size={20} stroke={1.6} /> }]
      : []),
  ];

  if (rail) {
    const waiting = counters?.waiting ?? 0;
    return (
      <Stack gap={4} component="nav" aria-label={t('menu.mainNav')} align="center" data-testid="nav-rail">
        <RailLink
          to="/admin/chats?filter=assigned"
          label={t('menu.chatCenter')}
          icon={
            <Indicator disabled={!waiting} label={waiting} size={16} color="orange" offset={2}>
              <IconMessages size={20} stroke={1.6} />
            </Indicator>
          }
          active={pathname === '/admin/chats'}
          onClick={onNavigate}
        />
        {[...chatEntries, ...entries].map((e) => (
          <RailLink key={e.to} {...e} active={active(e.to)} onClick={onNavigate} />
        ))}
        <Tooltip label={t('menu.logout')} position="right" events={TOOLTIP_EVENTS}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size={40}
            mt="md"
            aria-label={t('menu.logout')}
            onClick={() => void logout()}
            data-testid="logout"
          >
            <IconLogout size={20} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Stack>
    );
  }

  const item = (e: Entry) => (
    <NavLink
      key={e.to}
      component={Link}
      to={e.to}
      label={e.label}
      leftSection={e.icon}
      active={active(e.to)}
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
        {chatEntries.map(item)}
      </NavLink>
      {entries.map(item)}
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

const TOOLTIP_EVENTS = { hover: true, focus: true, touch: false };

/** One icon of the folded menu: a link named by its label, which a tooltip also shows on hover and focus. */
function RailLink({ to, label, icon, active, onClick }: Entry & { active: boolean; onClick: () => void }) {
  return (
    <Tooltip label={label} position="right" events={TOOLTIP_EVENTS}>
      <ActionIcon
        component={Link}
        to={to}
        size={40}
        variant={active ? 'light' : 'subtle'}
        color={active ? undefined : 'gray.7'}
        aria-label={label}
        aria-current={active ? 'page' : undefined}
        onClick={onClick}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}
