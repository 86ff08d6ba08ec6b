import { registerSW } from 'virtual:pwa-register';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../shared/i18n/index.ts';

const CHECK_EVERY_MS = 30 * 60 * 1000;

/** 'New version available, refresh page' with its Refresh button (rendered inside the app's providers). */
function NewVersionNotice({ onRefresh }: { onRefresh: () => void }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" data-testid="new-version">
      <Text size="sm" fw={500}>
        {t('notices.newVersion')}
      </Text>
      <Button size="xs" onClick={onRefresh}>
        {t('common.refresh')}
      </Button>
    </Group>
  );
}

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
        message: <NewVersionNotice onRefresh={() => void update(true)} />,
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
