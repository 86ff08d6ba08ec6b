import { Tabs } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';

const BASE = '/admin/preferences/templates';

/** Preferences -> Templates: our own templates and the read-only WhatsApp list, as two tabs of one section. */
export function TemplatesLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const active = useLocation().pathname.startsWith(`${BASE}/whats-app`) ? 'whats-app' : 'custom';
  return (
    <Tabs value={active} onChange={(v) => v && navigate(v === 'custom' ? BASE : `${BASE}/${v}`)}>
      <Tabs.List mb="md">
        <Tabs.Tab value="custom">{t('preferences.templates')}</Tabs.Tab>
        <Tabs.Tab value="whats-app">{t('preferences.whatsappTemplates')}</Tabs.Tab>
      </Tabs.List>
      {(['custom', 'whats-app'] as const).map((tab) => (
        <Tabs.Panel key={tab} value={tab}>
          {tab === active ? <Outlet /> : null}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
