import { Alert, Badge, Button, Divider, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import type { PushSettings, PushStateDto } from '@smartconnect/contracts';
import { IconBell, IconBellOff, IconSend, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { pushKeys } from './keys.ts';
import {
  pushKey,
  removePushSubscription,
  savePushSettings,
  savePushSubscription,
  sendTestPush,
  usePushState,
  useThisBrowser,
} from './push-api.ts';
import { PushBrowserError, pushSupported, subscribeBrowser, unsubscribeBrowser } from './push-browser.ts';

type Action<V, R> = {
  fn: (v: V) => Promise<R>;
  done: (r: R) => unknown;
  fail: (err: unknown) => void;
  clear: () => void;
};

/** A mutation whose failure is shown in place (not as a toast). */
function useAction<V, R>(a: Action<V, R>) {
  return useMutation({
    meta: { silent: true },
    mutationFn: a.fn,
    onMutate: a.clear,
    onSuccess: a.done,
    onError: a.fail,
  });
}

/**
 * Profile -> Notifications (issue 34): web push for this browser (the permission, the subscription with the
 * server's VAPID key), what to push (new chats, new messages), a test notification and the subscribed browsers.
 * Failures are shown in place, in the §8 words for the push codes.
 */
export function PushSettingsTab() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const state = usePushState();
  const here = useThisBrowser();
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: pushKeys.settings }),
      client.invalidateQueries({ queryKey: pushKeys.here }),
    ]);
  const fail = (err: unknown) =>
    setProblem(
      err instanceof PushBrowserError
        ? t(`push.${err.reason}`)
        : translateError(isApiError(err) ? err.code : 'unknownException'),
    );
  const action = <V, R>(fn: (v: V) => Promise<R>, done: (r: R) => unknown) =>
    ({ fn, done, fail, clear: () => setProblem(null) }) satisfies Action<V, R>;

  const mine = state.data?.subscriptions.find((s) => here.data && s.endpoint === here.data);
  const turnOn = useAction(
    action(
      async () => savePushSubscription(await subscribeBrowser((await pushKey()).publicKey)),
      async () => {
        notifySuccess(t('push.turnedOn'));
        await refresh();
      },
    ),
  );
  const turnOff = useAction(
    action(
      async () => {
        if (mine) await removePushSubscription(mine.id);
        await unsubscribeBrowser();
      },
      async () => {
        notifySuccess(t('push.turnedOff'));
        await refresh();
      },
    ),
  );
  const save = useAction(
    action(savePushSettings, (data: PushStateDto) => {
      client.setQueryData(pushKeys.settings, data);
      notifySuccess(t('push.saved'));
    }),
  );
  const test = useAction(action(sendTestPush, () => notifySuccess(t('push.testSent'))));
  const remove = useAction(
    action(removePushSubscription, async () => {
      notifySuccess(t('push.removed'));
      await refresh();
    }),
  );

  if (state.isPending) return <SectionLoader />;
  if (state.isError) return <ErrorState onRetry={() => void state.refetch()} retrying={state.isFetching} />;
  const settings: PushSettings = { newChats: state.data.newChats, newMessages: state.data.newMessages };
  const when = (iso: string) =>
    dateFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const supported = pushSupported();

  return (
    <Paper p="xl" data-testid="push-settings">
      <Stack gap="lg">
        <div>
          <Title order={4}>{t('push.title')}</Title>
          <Text size="sm" c="dimmed" mt={4}>
            {t('push.intro')}
          </Text>
        </div>
        {!supported && (
          <Alert color="yellow" data-testid="push-unsupported">
            {t('push.unsupported')}
          </Alert>
        )}
        <Group justify="space-between" gap="sm">
          <Badge color={mine ? 'green' : 'gray'} variant="light" data-testid="push-here">
            {mine ? t('push.onHere') : t('push.offHere')}
          </Badge>
          {mine ? (
            <Button
              variant="default"
              leftSection={<IconBellOff size={16} />}
              loading={turnOff.isPending}
              onClick={() => turnOff.mutate(undefined)}
            >
              {t('push.turnOff')}
            </Button>
          ) : (
            <Button
              leftSection={<IconBell size={16} />}
              disabled={!supported}
              loading={turnOn.isPending}
              onClick={() => turnOn.mutate(undefined)}
            >
              {t('push.turnOn')}
            </Button>
          )}
        </Group>
        {problem && (
          <Alert
            color="red"
            role="alert"
            data-testid="push-error"
            withCloseButton
            closeButtonLabel={t('common.close')}
            onClose={() => setProblem(null)}
          >
            {problem}
          </Alert>
        )}
        <Divider />
        <Title order={5}>{t('push.whatTitle')}</Title>
        <Switch
          label={t('push.newChats')}
          description={t('push.newChatsHint')}
          checked={settings.newChats}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ ...settings, newChats: e.currentTarget.checked })}
          data-testid="push-new-chats"
        />
        <Switch
          label={t('push.newMessages')}
          description={t('push.newMessagesHint')}
          checked={settings.newMessages}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ ...settings, newMessages: e.currentTarget.checked })}
          data-testid="push-new-messages"
        />
        <Group>
          <Button
            variant="light"
            leftSection={<IconSend size={16} />}
            loading={test.isPending}
            onClick={() => test.mutate(undefined)}
          >
            {t('push.test')}
          </Button>
        </Group>
        <Divider />
        <Title order={5}>{t('push.devicesTitle')}</Title>
        {state.data.subscriptions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('push.devicesEmpty')}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="push-devices">
            {state.data.subscriptions.map((s) => (
              <Group key={s.id} justify="space-between" wrap="nowrap" gap="sm">
                <div style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text size="sm" fw={500} lineClamp={1}>
                      {s.userAgent ?? t('push.unknownBrowser')}
                    </Text>
                    {s.id === mine?.id && <Badge size="xs">{t('push.thisBrowser')}</Badge>}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {t('push.since', { date: when(s.createdAt) })}
                  </Text>
                </div>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} />}
                  loading={remove.isPending && remove.variables === s.id}
                  onClick={() => remove.mutate(s.id)}
                >
                  {t('push.remove')}
                </Button>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
