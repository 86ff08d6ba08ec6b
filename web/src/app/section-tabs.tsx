import { Tabs } from '@mantine/core';
import type { PlanOption, Right } from '@smartconnect/contracts';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../shared/i18n/index.ts';
import { useAccess } from '../shared/session.tsx';
import { PageHeader } from '../shared/ui/page-header.tsx';

type Props = {
  base: string;
  ns: string;
  tabs: string[];
  titleKey: string;
  /** The §6 right a tab's route is guarded by: without it the tab is not offered (no way into /no-rights). */
  rights?: Partial<Record<string, Right>>;
  /** A plan option a tab needs besides the section's own: without it the tab is not offered. */
  options?: Partial<Record<string, PlanOption>>;
};

/** A section with tabs as sub-routes (reports, monitoring, finance). */
export function SectionTabs({ base, ns, tabs, titleKey, rights = {}, options = {} }: Props) {
  const { t } = useTranslation();
  const { can, has } = useAccess();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const shown = tabs.filter((tab) => {
    const right = rights[tab];
    const option = options[tab];
    return (!right || can(right)) && (!option || has(option));
  });
  const active = shown.find((tab) => pathname.startsWith(`${base}/${tab}`)) ?? shown[0];
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Tabs value={active} onChange={(v) => v && navigate(`${base}/${v}`)} mb="lg">
        <Tabs.List>
          {shown.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {t(`${ns}.${tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* The tab's screen is its panel (the tabs control panels that exist: aria-controls). */}
        {shown.map((tab) => (
          <Tabs.Panel key={tab} value={tab}>
            {tab === active ? <Outlet /> : null}
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
