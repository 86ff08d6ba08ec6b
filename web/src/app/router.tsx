import { Navigate, type RouteObject, useParams } from 'react-router';
import { ERROR_ICON } from '../shared/title.ts';
import { screen, withAllTexts } from './lazy.ts';
import { RootLayout } from './root-layout.tsx';

function PhoneConfirmationRedirect() {
  const { token = '' } = useParams();
  return <Navigate to={`/signup?token=${encodeURIComponent(token)}`} replace />;
}

const status = (kind: string, title: string, icon?: string): RouteObject => ({
  path: `/${kind}`,
  handle: { title, icon },
  lazy: screen(() => import('../features/public-pages/status-page.tsx'), 'StatusPage'),
});

/**
 * Every route of the app, rendered by the declarative router (app.tsx: BrowserRouter and useRoutes over
 * declarativeRoutes(routes), lazy.ts): `lazy` loads a screen's chunk on first visit, `handle.title` names the page
 * (root-layout.tsx); a failed screen shows RouteError (app.tsx). The data router is not used: the public pages
 * download half the router.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        path: '/',
        handle: { title: 'titles.login' },
        lazy: screen(() => import('../features/support/login-with-support.tsx'), 'LoginWithSupport'),
      },
      {
        path: '/restore',
        handle: { title: 'titles.restore' },
        lazy: screen(() => import('../features/auth/restore-page.tsx'), 'RestorePage'),
      },
      {
        path: '/signup',
        handle: { title: 'titles.signup' },
        lazy: screen(() => import('../features/signup/signup-page.tsx'), 'SignupPage'),
      },
      { path: '/registration/phone-confirmation/:token', element: <PhoneConfirmationRedirect /> },
      status('not-found', 'titles.notFound', ERROR_ICON),
      status('service-unavailable', 'titles.serviceUnavailable', ERROR_ICON),
      status('success', 'titles.success'),
      status('already-used', 'titles.alreadyUsed'),
      status('no-rights', 'titles.noRights', ERROR_ICON),
      status('unknown-error', 'titles.unknownError', ERROR_ICON),
      {
        path: '/link-action/:uuid',
        handle: { title: 'titles.linkAction' },
        lazy: screen(() => import('../features/rating/link-action-page.tsx'), 'LinkActionPage'),
      },
      { ...status('bot-action', 'titles.linkAction'), path: '/bot-action/:uuid' },
      {
        path: '/widget-preview/:channelId',
        handle: { title: 'siteChat.previewTitle' },
        lazy: screen(
          withAllTexts(() => import('../features/channels/types/site_chat/preview-page.tsx')),
          'WidgetPreviewPage',
        ),
      },
      {
        // The signed-in app: its route table, shell and titles load with it (admin-routes.tsx).
        path: '/admin/*',
        handle: { nestedTitles: true },
        lazy: screen(
          withAllTexts(() => import('./admin-routes.tsx')),
          'AdminRoutes',
        ),
      },
      { path: '*', element: <Navigate to="/not-found" replace /> },
    ],
  },
];
