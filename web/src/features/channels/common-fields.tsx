import { NumberInput, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { CHANNEL_LIMITS } from '@smartconnect/contracts';
import { useTranslation } from 'react-i18next';
import { useTeams } from '../teams/api.ts';
import type { ChannelFormValues } from './channel-form.ts';

type Props = { form: UseFormReturnType<ChannelFormValues>; autoFocus?: boolean };

/** The fields every channel has: name, team, status and the overdue thresholds (§3). */
export function CommonFields({ form, autoFocus }: Props) {
  const { t } = useTranslation();
  const teams = useTeams();
  const active = form.values.status === 'active';
  return (
    <>
      <TextInput
        label={t('channels.name')}
        required
        data-autofocus={autoFocus || undefined}
        maxLength={CHANNEL_LIMITS.nameMax}
        {...form.getInputProps('name')}
      />
      <Select
        label={t('channels.team')}
        required
        searchable
        nothingFoundMessage={t('channels.noTeams')}
        data={(teams.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
        {...form.getInputProps('teamId')}
        value={form.values.teamId || null}
        onChange={(v) => form.setFieldValue('teamId', v ?? '')}
      />
      <Switch
        label={t('channels.statusLabel', { status: t(active ? 'common.active' : 'common.inactive') })}
        description={t('channels.statusHint')}
        checked={active}
        onChange={(e) => form.setFieldValue('status', e.currentTarget.checked ? 'active' : 'inactive')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <NumberInput
          label={t('channels.halfExpired')}
          description={t('channels.minutesHint')}
          min={1}
          max={CHANNEL_LIMITS.thresholdMax}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('halfExpiredMinutes')}
        />
        <NumberInput
          label={t('channels.expired')}
          description={t('channels.minutesHint')}
          min={1}
          max={CHANNEL_LIMITS.thresholdMax}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('expiredMinutes')}
        />
      </SimpleGrid>
    </>
  );
}
