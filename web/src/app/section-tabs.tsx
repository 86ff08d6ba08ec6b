import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageHeader } from '../shared/ui/page-header.tsx';

/** A section with tabs as sub-routes (reports, monitoring, finance). */
export function SectionTabs({
  base,
  ns,
  tabs,
  titleKey,
}: {
  base: string;
  ns: string;
  tabs: string[];
  titleKey: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const active = tabs.find((tab) => pathname.startsWith(`${base}/${tab}`)) ?? tabs[0];
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Tabs value={active} onChange={(v) => v && navigate(`${base}/${v}`)} mb="lg">
        <Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {t(`${ns}.${tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
