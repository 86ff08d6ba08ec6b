import { Anchor, Button, Group, List, Paper, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import type { FirstRunDto } from '@smartconnect/contracts';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { get } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess, useCurrentUser } from '../../shared/session.tsx';
import { organisationKeys } from '../preferences/keys.ts';

const dismissedKey = (userId: string) => `sc-first-run-dismissed:${userId}`;

/**
 * The first-run checklist of the chat center (issue 36): an administrator of an organisation with no chats yet sees
 * three steps (connect a channel, invite a colleague, try the website chat), each ticked when done; hidden for good
 * once dismissed (in this browser) or once the organisation has chats.
 */
export function FirstRunChecklist() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { can } = useAccess();
  const allowed = can('RIGHT_ACCOUNT_CONTROL');
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(dismissedKey(user.id)) === '1');
  const state = useQuery({
    queryKey: organisationKeys.firstRun,
    queryFn: () => get<FirstRunDto>('/api/organisation/first-run'),
    enabled: allowed && !dismissed,
  });
  const s = state.data;
  if (!allowed || dismissed || !s || s.hasChats) return null;
  const dismiss = () => {
    localStorage.setItem(dismissedKey(user.id), '1');
    setDismissed(true);
  };
  const widget = s.widgetChannelId ? `/widget-preview/${s.widgetChannelId}` : '/admin/preferences/channels';
  return (
    <Paper
      withBorder
      p="lg"
      maw={480}
      mx="auto"
      w="100%"
      data-testid="first-run"
      aria-labelledby="first-run-title"
    >
      <Title order={2} size="h4" id="first-run-title">
        {t('firstRun.title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {t('firstRun.hint')}
      </Text>
      <List spacing="sm" center>
        <Step done={s.channelConnected} testId="first-run-channel">
          <Anchor component={Link} to="/admin/preferences/channels">
            {t('firstRun.channel')}
          </Anchor>
        </Step>
        <Step done={s.colleagueInvited} testId="first-run-colleague">
          <Anchor component={Link} to="/admin/users/edit">
            {t('firstRun.colleague')}
          </Anchor>
        </Step>
        <Step done={s.widgetTried} testId="first-run-widget">
          <Anchor href={widget} target={s.widgetChannelId ? '_blank' : undefined} rel="noopener">
            {t('firstRun.widget')}
          </Anchor>
        </Step>
      </List>
      <Group justify="flex-end" mt="md">
        <Button variant="subtle" size="xs" onClick={dismiss}>
          {t('firstRun.dismiss')}
        </Button>
      </Group>
    </Paper>
  );
}

function Step({ done, testId, children }: { done: boolean; testId: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid={testId}
      data-done={done}
      icon={
        <ThemeIcon color={done ? 'teal' : 'gray'} variant="light" size={24} radius="xl">
          {done ? <IconCircleCheck size={16} /> : <IconCircleDashed size={16} />}
        </ThemeIcon>
      }
    >
      {children}
      <VisuallyHidden> ({done ? t('firstRun.done') : t('firstRun.todo')})</VisuallyHidden>
    </List.Item>
  );
}
