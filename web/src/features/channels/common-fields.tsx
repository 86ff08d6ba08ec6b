import {
  Fieldset,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { CHANNEL_LIMITS } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess } from '../../shared/session.tsx';
import { useTeams } from '../teams/api.ts';
import type { ChannelFormValues } from './channel-form.ts';

type Props = { form: UseFormReturnType<ChannelFormValues>; autoFocus?: boolean };

/**
 * The fields every channel has (§3): name, team, status, overdue thresholds, notification e-mail, the teams that
 * see it, and the service assessment.
 */
export function CommonFields({ form, autoFocus }: Props) {
  const { t } = useTranslation();
  const teams = useTeams();
  const { has } = useAccess();
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
      <TextInput
        type="email"
        label={t('channels.notificationEmail')}
        description={t('channels.notificationEmailHint')}
        maxLength={CHANNEL_LIMITS.emailMax}
        {...form.getInputProps('notificationEmail')}
      />
      <MultiSelect
        label={t('channels.visibleTeams')}
        description={t('channels.visibleTeamsHint')}
        searchable
        clearable
        nothingFoundMessage={t('channels.noTeams')}
        data={(teams.data ?? [])
          .filter((x) => x.id !== form.values.teamId)
          .map((x) => ({ value: x.id, label: x.name }))}
        {...form.getInputProps('visibleTeamIds')}
      />
      <Fieldset legend={t('channels.rating')} variant="filled" radius="md">
        <Stack gap="sm">
          <Switch
            label={t('channels.ratingBeforeEnd')}
            description={has('OPTION_QUALITY_ASSESSMENT') ? undefined : t('channels.ratingOption')}
            disabled={!has('OPTION_QUALITY_ASSESSMENT') && !form.values.ratingBeforeEnd}
            {...form.getInputProps('ratingBeforeEnd', { type: 'checkbox' })}
          />
          <Textarea
            label={t('channels.ratingMessage')}
            description={t('channels.ratingMessageHint')}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={CHANNEL_LIMITS.ratingMessageMax}
            {...form.getInputProps('ratingMessage')}
          />
        </Stack>
      </Fieldset>
    </>
  );
}
