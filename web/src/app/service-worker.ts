import { registerSW } from 'virtual:pwa-register';
import { notifications } from '@mantine/notifications';
import { i18n } from '../shared/i18n/index.ts';

const CHECK_EVERY_MS = 30 * 60 * 1000;

/**
 * §4: the worker lives at /service-worker.js with scope /. First install is silent (offline ready);
 * when a new version is waiting the user sees 'New version available, refresh page', and the page
 * reloads once the new worker takes control.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const update = registerSW({
    immediate: true,
    onNeedRefresh() {
      notifications.show({
        id: 'new-version',
        color: 'brand',
        autoClose: false,
        withCloseButton: true,
        title: i18n.t('notices.newVersion'),
        message: i18n.t('common.refresh'),
        onClick: () => void update(true),
        style: { cursor: 'pointer' },
      });
    },
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update(), CHECK_EVERY_MS);
    },
    onRegisterError(err) {
      console.warn('service worker registration failed', err);
    },
  });
}
