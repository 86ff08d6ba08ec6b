import { Button, Group, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type AutoRepliesDto,
  autoRepliesSchema,
  type ChannelDto,
  HOLDING_WAIT_MINUTES,
} from '@smartconnect/contracts';
import { IconLockSquareRounded } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { isApiError } from '../../../shared/api/errors.ts';
import { showServerErrors, zodValidate } from '../../../shared/form.ts';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { notifySuccess } from '../../../shared/notify.ts';
import { optionsPath } from '../../../shared/query.ts';
import { useAccess } from '../../../shared/session.tsx';
import { EmptyState } from '../../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../../shared/ui/full-loader.tsx';
import { channelKeys } from '../keys.ts';
import { type AutoRepliesValues, saveAutoReplies, useAutoReplies } from './api.ts';
import { ReplyCard } from './reply-card.tsx';

const valuesOf = ({ channelId: _, ...values }: AutoRepliesDto): AutoRepliesValues => values;

/** The channel page's 'automatic replies' tab (§2.6): within the plan (OPTION_AUTO_REPLY), the four replies. */
export function AutoRepliesTab({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  const { has } = useAccess();
  const on = has('OPTION_AUTO_REPLY');
  const replies = useAutoReplies(channel.id, on);
  if (!on)
    return (
      <EmptyState
        icon={<IconLockSquareRounded size={30} />}
        color="orange"
        title={t('pages.optionsTitle')}
        text={t('pages.optionsFeature', { name: t('planOptions.OPTION_AUTO_REPLY') })}
        action={
          <Button component={Link} to={optionsPath('OPTION_AUTO_REPLY')} variant="light">
            {t('pages.changePlan')}
          </Button>
        }
      />
    );
  if (!replies.data) {
    // 403 and 404 leave the screen (the shared load handling); a server or network failure can be retried here.
    const leaving = isApiError(replies.error) && [403, 404].includes(replies.error.status);
    if (replies.isError && !leaving)
      return <ErrorState onRetry={() => void replies.refetch()} retrying={replies.isFetching} />;
    return <SectionLoader />;
  }
  return <AutoRepliesForm channelId={channel.id} saved={replies.data} />;
}

function AutoRepliesForm({ channelId, saved }: { channelId: string; saved: AutoRepliesDto }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<AutoRepliesValues>({
    initialValues: valuesOf(saved),
    validate: zodValidate(autoRepliesSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: AutoRepliesValues) => saveAutoReplies(channelId, v),
    onSuccess: (updated) => {
      const values = valuesOf(updated);
      form.setInitialValues(values);
      form.setValues(values);
      client.setQueryData(channelKeys.autoReplies(channelId), updated);
      notifySuccess(t('channels.changed'));
    },
    onError: (err) => showServerErrors(form, err),
  });
  const waitLabel = 'auto-reply-holding-wait';
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack maw={960}>
        <Text size="sm" c="dimmed">
          {t('autoReplies.intro')}
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <ReplyCard kind="online" form={form} />
          <ReplyCard kind="offline" form={form} />
          <ReplyCard kind="rating" form={form} />
          <ReplyCard kind="holding" form={form}>
            <Stack gap={4}>
              <Text size="sm" fw={500} id={waitLabel}>
                {t('autoReplies.wait')}
              </Text>
              <SegmentedControl
                aria-labelledby={waitLabel}
                fullWidth
                data={HOLDING_WAIT_MINUTES.map((m) => ({
                  value: String(m),
                  label: t('autoReplies.minutes', { count: m }),
                }))}
                value={String(form.values.holding.waitMinutes)}
                onChange={(v) => form.setFieldValue('holding.waitMinutes', Number(v) as 1 | 2 | 5)}
              />
              {form.errors['holding.waitMinutes'] && (
                <Text size="xs" c="red.8" role="alert">
                  {form.errors['holding.waitMinutes']}
                </Text>
              )}
            </Stack>
          </ReplyCard>
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('common.saveChanges')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
