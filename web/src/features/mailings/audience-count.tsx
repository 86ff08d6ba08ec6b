import { Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { MAILING_SKIP_REASONS, mailingAudienceSchema } from '@smartconnect/contracts';
import { IconUsers } from '@tabler/icons-react';
import { type ReactNode, useEffect, useMemo } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { translateField, useTranslation } from '../../shared/i18n/index.ts';
import { useAudienceCount } from './api.ts';
import { type MailingFormValues, toAudience } from './form-values.ts';
import type { AudienceCountInput } from './keys.ts';

/** Counts `input` half a second after it last changed; `channelError`: the channel's refusal, translated. */
export function useLiveCount(input: AudienceCountInput | null) {
  const text = input ? JSON.stringify(input) : '';
  const [debounced] = useDebouncedValue(text, 500);
  const body = useMemo(() => (debounced ? (JSON.parse(debounced) as AudienceCountInput) : null), [debounced]);
  const count = useAudienceCount(body);
  const err = count.error;
  const channelError =
    isApiError(err) && err.fields?.channelId ? (translateField(err.fields.channelId) ?? null) : null;
  return { count, pending: !!input && (text !== debounced || count.isFetching), channelError };
}

/** The form's live count: counted again when the audience, channel or marketing type change (not the text). */
export function AudienceCount({ form }: { form: UseFormReturnType<MailingFormValues> }) {
  const v = form.values;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the audience's own fields are what toAudience reads
  const audience = useMemo(
    () => toAudience(v),
    [v.statusIds, v.tags, v.companyIds, v.managerIds, v.lastContactAfter, v.lastContactBefore, v.list],
  );
  const valid = mailingAudienceSchema.safeParse(audience).success;
  const input: AudienceCountInput | null =
    v.channelId && valid
      ? { channelId: v.channelId, marketingType: v.marketingType, audience, template: !!v.template }
      : null;
  const live = useLiveCount(input);
  const { setFieldError, clearFieldError } = form;
  useEffect(() => {
    if (live.channelError) setFieldError('channelId', live.channelError);
    else clearFieldError('channelId');
  }, [live.channelError, setFieldError, clearFieldError]);
  return <CountPanel live={live} waiting={!v.channelId ? 'noChannel' : valid ? null : 'invalid'} />;
}

/** A live count as a panel: who would receive the mailing, who would be skipped and why, list entries not found. */
export function CountPanel({
  live: { count, pending, channelError },
  waiting = null,
}: {
  live: ReturnType<typeof useLiveCount>;
  waiting?: 'noChannel' | 'invalid' | null;
}) {
  const { t } = useTranslation();
  const data = count.data;
  let body: ReactNode;
  if (waiting) body = <Text size="sm">{t(`mailings.count.${waiting}`)}</Text>;
  else if (count.error && !pending)
    body = (
      <Text size="sm" c="red.8" data-testid="audience-count-error">
        {channelError ?? t('mailings.count.failed')}
      </Text>
    );
  else if (!data) body = <Text size="sm">{t('mailings.count.counting')}</Text>;
  else {
    const skipped = MAILING_SKIP_REASONS.filter((r) => (data.skipped[r] ?? 0) > 0);
    body = (
      <Stack gap={4}>
        <Text size="sm">
          <Text span fw={700} fz="xl" data-testid="audience-eligible">
            {data.eligible}
          </Text>{' '}
          {t('mailings.count.eligible', { count: data.eligible, total: data.total })}
        </Text>
        {skipped.map((r) => (
          <Text key={r} size="xs" c="gray.7" data-testid={`audience-skipped-${r}`}>
            {t(`mailings.skip.${r}`)}: {data.skipped[r]}
          </Text>
        ))}
        {data.notFound > 0 && (
          <Text size="xs" c="orange.9" data-testid="audience-not-found">
            {t('mailings.count.notFound', { count: data.notFound })}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Paper withBorder p="md" bg="gray.0" data-testid="audience-count">
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <IconUsers size={22} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Stack gap={4} style={{ flex: 1 }} aria-live="polite" aria-busy={pending}>
          <Text size="sm" fw={600}>
            {t('mailings.count.title')}
          </Text>
          {body}
        </Stack>
        {pending && <Loader size="xs" aria-label={t('mailings.count.counting')} />}
      </Group>
    </Paper>
  );
}
