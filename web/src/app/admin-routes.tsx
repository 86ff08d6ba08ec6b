import { Navigate, type RouteObject, useRoutes } from 'react-router';
import { ComingSoon } from '../shared/ui/coming-soon.tsx';
import { AdminLayout } from './admin-layout.tsx';
import { Guard } from './guards.tsx';
import { declarativeRoutes, preloadRoutes, screen } from './lazy.ts';
import { TitleManager } from './root-layout.tsx';
import { SectionTabs } from './section-tabs.tsx';

// The signed-in app's route table loads with its shell (router.tsx: `/admin/*`), not in the entry: its screens'
// loaders name every chunk they preload (~4 KB gzipped the public pages do not download). The guards, section tabs
// and placeholder come in this chunk, so a screen never waits for them after it.

const soon = (path: string, titleKey: string): RouteObject => ({
  path,
  handle: { title: titleKey },
  element: <ComingSoon titleKey={titleKey} />,
});
const to = (path: string): RouteObject => ({ index: true, element: <Navigate to={path} replace /> });

/** 'report' is the Summary report (an operator's own figures without AUTHORITY_ALL_STAT); 'common' leads to it. */
const reportTabs = ['report', 'dialogs', 'channels', 'employees', 'teams', 'time', 'categories', 'mailings'];
/** Every report but the consolidated one needs AUTHORITY_ALL_STAT (§6). */
const statTabs = reportTabs.slice(1);
const reportScreens: Record<string, [() => Promise<Record<string, unknown>>, string]> = {
  dialogs: [() => import('../features/reports/dialogs-report.tsx'), 'DialogsTab'],
  channels: [() => import('../features/reports/report-tabs.tsx'), 'ChannelsTab'],
  employees: [() => import('../features/reports/report-tabs.tsx'), 'EmployeesTab'],
  teams: [() => import('../features/reports/report-tabs.tsx'), 'TeamsTab'],
  time: [() => import('../features/reports/time-report.tsx'), 'TimeTab'],
  categories: [() => import('../features/reports/report-tabs.tsx'), 'CategoriesTab'],
  mailings: [() => import('../features/reports/mailings-report.tsx'), 'MailingsTab'],
};
/** Tabs that need a plan option of their own besides statistics: not offered without it. */
const reportOptions = { mailings: 'OPTION_MAILING' } as const;
const statRights = Object.fromEntries(statTabs.map((tab) => [tab, 'AUTHORITY_ALL_STAT' as const]));
const monitoringTabs = ['channels', 'teams', 'operators', 'abonents'];
const financeTabs = ['balance', 'payments', 'billing'];

/** Every route of §2.6 with the §6 guards and plan-option checks, under `/admin` (paths relative to it). */
const adminRoutes: RouteObject = {
  path: '/',
  element: <AdminLayout />,
  children: [
    { index: true, element: <Navigate to="/admin/chats?filter=assigned" replace /> },
    {
      path: 'chats',
      handle: { title: 'menu.chatCenter' },
      lazy: screen(() => import('../features/chats/chats-page.tsx'), 'ChatsPage'),
    },
    {
      path: 'options',
      handle: { title: 'pages.optionsTitle' },
      lazy: screen(() => import('../features/public-pages/options-page.tsx'), 'OptionsPage'),
    },
    {
      path: 'chats/create',
      handle: { title: 'workspace.createTitle' },
      lazy: screen(() => import('../features/chats/create-chat/create-chat-page.tsx'), 'CreateChatPage'),
    },
    {
      element: <Guard option="OPTION_EXPIRING" />,
      children: [
        {
          path: 'chats/expired',
          handle: { title: 'workspace.expiredTitle' },
          lazy: screen(() => import('../features/chats/expired/expired-page.tsx'), 'ExpiredPage'),
        },
      ],
    },
    {
      element: <Guard option="OPTION_EXTENDED_SEARCH" />,
      children: [
        {
          path: 'expanded-search',
          handle: { title: 'menu.search' },
          lazy: screen(() => import('../features/search/search-page.tsx'), 'SearchPage'),
        },
      ],
    },
    {
      path: 'support',
      handle: { title: 'menu.support' },
      lazy: screen(() => import('../features/support/support-page.tsx'), 'SupportPage'),
    },
    {
      path: 'profile',
      handle: { title: 'profile.title' },
      lazy: screen(() => import('../features/profile/profile-layout.tsx'), 'ProfileLayout'),
      children: [
        to('general'),
        { path: 'general', lazy: screen(() => import('../features/profile/general-tab.tsx'), 'GeneralTab') },
        {
          path: 'authentication',
          lazy: screen(() => import('../features/profile/authentication-tab.tsx'), 'AuthenticationTab'),
        },
        {
          path: 'notifications',
          lazy: screen(() => import('../features/push/push-settings-tab.tsx'), 'PushSettingsTab'),
        },
      ],
    },
    {
      path: 'reports',
      element: (
        <SectionTabs
          base="/admin/reports"
          ns="reports"
          tabs={reportTabs}
          titleKey="menu.reports"
          rights={statRights}
          options={reportOptions}
        />
      ),
      children: [
        to('report'),
        {
          // The unguarded /report: the signed-in user's own statistics (DECISIONS.md).
          path: 'report',
          handle: { title: 'reports.report' },
          lazy: screen(() => import('../features/reports/report-tabs.tsx'), 'ReportTab'),
        },
        { path: 'common', element: <Navigate to="../report" replace /> },
        {
          element: <Guard right="AUTHORITY_ALL_STAT" option="OPTION_STATISTIC" />,
          children: statTabs.map((tab) => {
            const route: RouteObject = reportScreens[tab]
              ? {
                  path: tab,
                  handle: { title: `reports.${tab}` },
                  lazy: screen(reportScreens[tab][0], reportScreens[tab][1]),
                }
              : soon(tab, `reports.${tab}`);
            const option = reportOptions[tab as keyof typeof reportOptions];
            return option
              ? { element: <Guard right="AUTHORITY_ALL_STAT" option={option} />, children: [route] }
              : route;
          }),
        },
      ],
    },
    {
      path: 'users',
      handle: { title: 'users.title' },
      children: [
        to('all'),
        { path: 'all', lazy: screen(() => import('../features/users/users-page.tsx'), 'UsersPage') },
        {
          element: <Guard right="RIGHT_ACCOUNT_CONTROL" />,
          children: [
            {
              path: 'edit',
              lazy: screen(() => import('../features/users/user-edit-page.tsx'), 'UserEditPage'),
            },
            {
              path: 'edit/:id',
              lazy: screen(() => import('../features/users/user-edit-page.tsx'), 'UserEditPage'),
            },
          ],
        },
      ],
    },
    {
      // Client profiles (issue 14): the clients list, a client's page, outer companies.
      element: <Guard option="OPTION_PROFILE" />,
      children: [
        {
          path: 'clients',
          handle: { title: 'clientProfiles.clientsTitle' },
          lazy: screen(() => import('../features/client-profiles/clients-page.tsx'), 'ClientsPage'),
        },
        {
          path: 'clients/companies',
          handle: { title: 'clientProfiles.companiesTitle' },
          lazy: screen(() => import('../features/client-profiles/companies-page.tsx'), 'CompaniesPage'),
        },
        {
          path: 'clients/:id',
          handle: { title: 'clientProfiles.card' },
          lazy: screen(() => import('../features/client-profiles/client-page.tsx'), 'ClientPage'),
        },
      ],
    },
    {
      path: 'teams',
      handle: { title: 'teams.title' },
      children: [
        to('all'),
        { path: 'all', lazy: screen(() => import('../features/teams/teams-page.tsx'), 'TeamsPage') },
      ],
    },
    {
      // The bot editor takes the whole window (issue 36), outside the Preferences frame; same address and guards.
      // The editor (React Flow) is its own chunk, loaded when a bot is opened.
      element: <Guard right="RIGHT_ACCOUNT_CONTROL" option="OPTION_CHAT_BOT" />,
      children: [
        {
          path: 'preferences/chat-bots/bot',
          handle: { title: 'chatBots.title' },
          lazy: screen(() => import('../features/chat-bots/bot-editor-page.tsx'), 'BotEditorPage'),
        },
      ],
    },
    {
      path: 'preferences',
      handle: { title: 'preferences.title' },
      lazy: screen(() => import('../features/preferences/preferences-layout.tsx'), 'PreferencesLayout'),
      children: [
        {
          index: true,
          lazy: screen(() => import('../features/preferences/preferences-layout.tsx'), 'PreferencesIndex'),
        },
        {
          element: <Guard right="RIGHT_ACCOUNT_CONTROL" />,
          children: [
            {
              path: 'organisation',
              handle: { title: 'orgSettings.menu' },
              lazy: screen(
                () => import('../features/preferences/organisation-page.tsx'),
                'OrganisationSettingsPage',
              ),
            },
          ],
        },
        {
          element: <Guard right="RIGHT_OBSERVER" />,
          children: [
            {
              path: 'plans',
              handle: { title: 'preferences.plans' },
              lazy: screen(() => import('../features/billing/plans-page.tsx'), 'PlansPage'),
            },
            {
              path: 'companies',
              handle: { title: 'preferences.companies' },
              lazy: screen(() => import('../features/billing/companies-page.tsx'), 'CompaniesPage'),
            },
            {
              path: 'web-vitals',
              handle: { title: 'observability.title' },
              lazy: screen(() => import('../features/observability/vitals-page.tsx'), 'VitalsPage'),
            },
            {
              path: 'landing-requests',
              handle: { title: 'landing.title' },
              lazy: screen(
                () => import('../features/landing/landing-requests-page.tsx'),
                'LandingRequestsPage',
              ),
            },
          ],
        },
        {
          element: <Guard right="AUTHORITY_SERVICE_ACCOUNT" />,
          children: [
            {
              path: 'channels',
              handle: { title: 'preferences.channels' },
              lazy: screen(() => import('../features/channels/channels-page.tsx'), 'ChannelsPage'),
            },
            {
              path: 'channels/:id',
              handle: { title: 'preferences.channels' },
              lazy: screen(() => import('../features/channels/channel-edit-page.tsx'), 'ChannelEditPage'),
            },
            {
              element: <Guard option="OPTION_ROUTING" />,
              children: [
                {
                  path: 'routing-rules',
                  handle: { title: 'routingRules.title' },
                  lazy: screen(
                    () => import('../features/routing-rules/routing-rules-page.tsx'),
                    'RoutingRulesPage',
                  ),
                },
              ],
            },
            {
              element: <Guard option="OPTION_CHAT_BOT" />,
              children: [
                {
                  path: 'chat-bots',
                  handle: { title: 'chatBots.title' },
                  lazy: screen(() => import('../features/chat-bots/chat-bots-page.tsx'), 'ChatBotsPage'),
                },
              ],
            },
          ],
        },
        {
          element: <Guard right="AUTHORITY_ROLE_MODIFY" />,
          children: [
            {
              path: 'roles',
              handle: { title: 'roles.title' },
              lazy: screen(() => import('../features/roles/roles-page.tsx'), 'RolesPage'),
            },
          ],
        },
        {
          element: <Guard right="AUTHORITY_PROFILE_STATUS" option="OPTION_PROFILE_STATUS" />,
          children: [
            {
              path: 'statuses',
              handle: { title: 'preferences.statuses' },
              lazy: screen(() => import('../features/client-profiles/statuses-page.tsx'), 'StatusesPage'),
            },
          ],
        },
        {
          element: <Guard right="AUTHORITY_TEAM_TEMPLATE" option="OPTION_TEMPLATE" />,
          children: [
            {
              path: 'templates',
              handle: { title: 'preferences.templates' },
              lazy: screen(() => import('../features/templates/templates-layout.tsx'), 'TemplatesLayout'),
              children: [
                {
                  index: true,
                  lazy: screen(() => import('../features/templates/templates-page.tsx'), 'TemplatesPage'),
                },
                {
                  path: 'whats-app',
                  handle: { title: 'preferences.whatsappTemplates' },
                  lazy: screen(
                    () => import('../features/templates/whatsapp-templates-page.tsx'),
                    'WhatsAppTemplatesPage',
                  ),
                },
              ],
            },
          ],
        },
        {
          element: <Guard right="AUTHORITY_TEAM_TEMPLATE" />,
          children: [
            {
              path: 'knowledge-base',
              handle: { title: 'preferences.knowledgeBase' },
              lazy: screen(() => import('../features/knowledge-base/kb-page.tsx'), 'KnowledgeBasePage'),
            },
          ],
        },
        {
          element: <Guard right="AUTHORITY_INTEGRATION" />,
          children: [
            {
              path: 'extensions',
              handle: { title: 'preferences.extensions' },
              lazy: screen(
                () => import('../features/integrations/integrations-page.tsx'),
                'IntegrationsPage',
              ),
            },
          ],
        },
        {
          path: 'black-list',
          handle: { title: 'preferences.blackList' },
          lazy: screen(() => import('../features/client-profiles/blacklist-page.tsx'), 'BlacklistPage'),
        },
        {
          path: 'merge-contacts',
          handle: { title: 'preferences.mergeContacts' },
          lazy: screen(() => import('../features/client-profiles/merge-page.tsx'), 'MergeContactsPage'),
        },
        {
          element: <Guard right="AUTHORITY_CHAT_SESSION_CATEGORY" option="OPTION_CATEGORY" />,
          children: [
            {
              path: 'categories',
              handle: { title: 'requestCategories.title' },
              lazy: screen(() => import('../features/categories/categories-page.tsx'), 'CategoriesPage'),
            },
            ...['categories/template', 'categories/template/:id'].map((path) => ({
              path,
              handle: { title: 'requestCategories.title' },
              lazy: screen(() => import('../features/categories/category-page.tsx'), 'CategoryPage'),
            })),
          ],
        },
      ],
    },
    {
      path: 'monitoring',
      element: <Guard right="AUTHORITY_ALL_STAT" option="OPTION_ONLINE_MONITORING" />,
      children: [
        {
          element: (
            <SectionTabs
              base="/admin/monitoring"
              ns="monitoring"
              tabs={monitoringTabs}
              titleKey="menu.monitoring"
            />
          ),
          children: [
            to('channels'),
            ...monitoringTabs.map((tab) => ({
              path: tab,
              handle: { title: `monitoring.${tab}` },
              lazy: screen(
                () => import('../features/monitoring/monitoring-tab.tsx'),
                `${tab[0].toUpperCase()}${tab.slice(1)}Tab`,
              ),
            })),
          ],
        },
      ],
    },
    {
      // Mailings (issue 33): the list, a new one, a mailing's page and its form while not started.
      path: 'mailings',
      element: <Guard right="AUTHORITY_MAILING" option="OPTION_MAILING" />,
      children: [
        {
          index: true,
          handle: { title: 'mailings.title' },
          lazy: screen(() => import('../features/mailings/mailings-page.tsx'), 'MailingsPage'),
        },
        ...['new', ':id/edit'].map((path) => ({
          path,
          handle: { title: path === 'new' ? 'mailings.newTitle' : 'mailings.editTitle' },
          lazy: screen(() => import('../features/mailings/mailing-form-page.tsx'), 'MailingFormPage'),
        })),
        {
          path: ':id',
          handle: { title: 'mailings.mailingTitle' },
          lazy: screen(() => import('../features/mailings/mailing-page.tsx'), 'MailingPage'),
        },
      ],
    },
    {
      // SMS-system import (issue 33): part of mailings, the same right and plan option.
      path: 'sms-imports',
      element: <Guard right="AUTHORITY_MAILING" option="OPTION_MAILING" />,
      children: [
        {
          index: true,
          handle: { title: 'smsImport.title' },
          lazy: screen(() => import('../features/sms-import/sms-import-page.tsx'), 'SmsImportPage'),
        },
      ],
    },
    {
      path: 'finance',
      element: <Guard right="AUTHORITY_FINANCE" />,
      children: [
        {
          element: (
            <SectionTabs base="/admin/finance" ns="finance" tabs={financeTabs} titleKey="menu.finance" />
          ),
          children: [
            to('balance'),
            {
              path: 'balance',
              handle: { title: 'finance.balance' },
              lazy: screen(() => import('../features/billing/balance-tab.tsx'), 'BalanceTab'),
            },
            {
              path: 'payments',
              handle: { title: 'finance.payments' },
              lazy: screen(() => import('../features/billing/history-tabs.tsx'), 'PaymentsTab'),
            },
            {
              path: 'billing',
              handle: { title: 'finance.billing' },
              lazy: screen(() => import('../features/billing/history-tabs.tsx'), 'BillingTab'),
            },
          ],
        },
        {
          // The built-in demo payment page (no payment provider configured): a top-up's hosted page.
          path: 'demo-payment/:id',
          handle: { title: 'finance.demoPayment' },
          lazy: screen(() => import('../features/billing/demo-payment-page.tsx'), 'DemoPaymentPage'),
        },
      ],
    },
    { path: '*', element: <Navigate to="/not-found" replace /> },
  ],
};

const table = declarativeRoutes([adminRoutes]);
// The opened page's screen starts loading with this chunk, while the shell waits for the session's user.
preloadRoutes(table, window.location.pathname.replace(/^\/admin/, '') || '/');

/** `/admin/*` (router.tsx): the admin shell and its screens, each page named by its route (root-layout.tsx). */
export function AdminRoutes() {
  const page = useRoutes(table);
  return (
    <>
      <TitleManager routes={table} basename="/admin" />
      {page}
    </>
  );
}
