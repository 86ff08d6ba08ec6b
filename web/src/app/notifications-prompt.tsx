import { Button, Group, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../shared/i18n/index.ts';
import {
  markNotificationsAsked,
  notificationsAsked,
  readAttentionPrefs,
  writeAttentionPrefs,
} from './attention.ts';

const askable = () =>
  typeof Notification !== 'undefined' && Notification.permission === 'default' && !notificationsAsked();

/**
 * In the chat center, the header's empty middle asks once whether this browser may show desktop notifications of new
 * chats while the tab is in the background (issue 36: alerts were off and hidden in the user menu). The browser's own
 * question needs a click, so the bar has Allow and Not now; once answered it is not asked again (the user menu keeps
 * the switch). It covers nothing and moves nothing: the header band is empty there.
 */
export function NotificationsPrompt() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(askable);
  if (!open || !pathname.startsWith('/admin/chats')) return null;
  const answer = async (allow: boolean) => {
    markNotificationsAsked();
    setOpen(false);
    if (allow && (await Notification.requestPermission()) === 'granted')
      writeAttentionPrefs({ ...readAttentionPrefs(), desktop: true });
  };
  return (
    <Group
      gap="xs"
      wrap="nowrap"
      visibleFrom="md"
      data-testid="notifications-prompt"
      role="region"
      aria-label={t('attention.askTitle')}
    >
      <IconBell size={18} aria-hidden />
      <Text size="sm" lineClamp={1}>
        {t('attention.askText')}
      </Text>
      <Button size="compact-sm" onClick={() => void answer(true)}>
        {t('attention.askAllow')}
      </Button>
      <Button size="compact-sm" variant="default" onClick={() => void answer(false)}>
        {t('attention.askLater')}
      </Button>
    </Group>
  );
}
