import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type OrganisationDto, organisationSettingsSchema } from '@smartconnect/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { get, patch } from '../../shared/api/client.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { reportKeys } from '../reports/keys.ts';
import { organisationKeys } from './keys.ts';

/** The zone's offset now, as 'UTC+03:00' ('UTC' itself for a zero offset). */
function offsetOf(zone: string, now: Date): string {
  try {
    const name = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(now)
      .find((p) => p.type === 'timeZoneName')?.value;
    return name === 'GMT' || !name ? 'UTC' : name.replace('GMT', 'UTC');
  } catch {
    return '';
  }
}

/** Every IANA zone the browser knows (and the organisation's own, were it not among them), with its offset now. */
function useZones(current: string | undefined) {
  return useMemo(() => {
    const names = new Set<string>(Intl.supportedValuesOf?.('timeZone') ?? []);
    names.add('UTC');
    if (current) names.add(current);
    const now = new Date();
    return [...names]
      .sort((a, b) => a.localeCompare(b))
      .map((zone) => ({ value: zone, label: `${zone.replaceAll('_', ' ')} (${offsetOf(zone, now)})` }));
  }, [current]);
}

/**
 * preferences/organisation: the organisation-level settings its administrator (RIGHT_ACCOUNT_CONTROL) changes;
 * today the time zone reports count days in (issue 17).
 */
export function OrganisationSettingsPage() {
  const organisation = useQuery({
    queryKey: organisationKeys.all,
    queryFn: () => get<OrganisationDto>('/api/organisation'),
  });
  if (organisation.isLoading) return <SectionLoader />;
  if (!organisation.data)
    return <ErrorState onRetry={() => organisation.refetch()} retrying={organisation.isFetching} />;
  return <SettingsForm key={organisation.data.timeZone} organisation={organisation.data} />;
}

function SettingsForm({ organisation }: { organisation: OrganisationDto }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const zones = useZones(organisation.timeZone);
  const form = useForm({
    initialValues: { timeZone: organisation.timeZone },
    validate: zodValidate(organisationSettingsSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: { timeZone: string }) => patch<OrganisationDto>('/api/organisation', v),
    onSuccess: async (saved) => {
      notifySuccess(t('orgSettings.saved'));
      client.setQueryData(organisationKeys.all, saved);
      // Reports count days in this zone: the ones shown are stale now.
      await client.invalidateQueries({ queryKey: reportKeys.all });
    },
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <Paper p="lg" maw={640}>
      <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
        <Stack>
          <div>
            <Title order={2} fz={20}>
              {t('orgSettings.title')}
            </Title>
            <Text size="sm" c="gray.7">
              {t('orgSettings.hint')}
            </Text>
          </div>
          <Select
            label={t('orgSettings.timeZone')}
            description={t('orgSettings.timeZoneHint')}
            placeholder={t('orgSettings.timeZoneSearch')}
            nothingFoundMessage={t('orgSettings.nothingFound')}
            data={zones}
            searchable
            withAsterisk
            allowDeselect={false}
            limit={100}
            data-testid="org-time-zone"
            {...form.getInputProps('timeZone')}
            onChange={(v) => form.setFieldValue('timeZone', v ?? '')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
              {t('common.saveChanges')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
