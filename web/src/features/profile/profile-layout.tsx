import { Tabs } from '@mantine/core';
import { IconBell, IconShieldLock, IconUser } from '@tabler/icons-react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';

const TABS = ['general', 'authentication', 'notifications'] as const;

/** /admin/profile: general, authentication and notifications (web push, issue 34). */
export function ProfileLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tab = TABS.find((name) => pathname.endsWith(`/${name}`)) ?? 'general';
  return (
    <div style={{ maxWidth: 880 }}>
      <PageHeader title={t('profile.title')} />
      <Tabs value={tab} onChange={(v) => v && navigate(`/admin/profile/${v}`)} mb="lg">
        <Tabs.List>
          <Tabs.Tab value="general" leftSection={<IconUser size={16} />}>
            {t('profile.general')}
          </Tabs.Tab>
          <Tabs.Tab value="authentication" leftSection={<IconShieldLock size={16} />}>
            {t('profile.authentication')}
          </Tabs.Tab>
          <Tabs.Tab value="notifications" leftSection={<IconBell size={16} />}>
            {t('push.tab')}
          </Tabs.Tab>
        </Tabs.List>
        {/* The tab's screen is its panel (the tabs control panels that exist: aria-controls). */}
        <Tabs.Panel value="general">{tab === 'general' ? <Outlet /> : null}</Tabs.Panel>
        <Tabs.Panel value="authentication">{tab === 'authentication' ? <Outlet /> : null}</Tabs.Panel>
        <Tabs.Panel value="notifications">{tab === 'notifications' ? <Outlet /> : null}</Tabs.Panel>
      </Tabs>
    </div>
  );
}
