import { MultiSelect, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  AUTO_CLOSE_CHOICES,
  DISTRIBUTION_METHODS,
  type DistributionMethod,
  type TeamDto,
} from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { readOnlyProps } from '../../shared/ui/read-only.ts';
import { useUsers } from '../users/api.ts';

export type TeamFormValues = {
  name: string;
  description: string;
  distributionMethod: DistributionMethod;
  dialogLimit: number | string;
  autoRedistributionMinutes: number | string;
  autoClose: string;
  inactivityHours: number | string;
  memberIds: string[];
};

export const emptyTeam: TeamFormValues = {
  name: '',
  description: '',
  distributionMethod: 'round_robin',
  dialogLimit: 5,
  autoRedistributionMinutes: '',
  autoClose: 'none',
  inactivityHours: 0,
  memberIds: [],
};

export const teamToForm = (team: TeamDto): TeamFormValues => ({
  name: team.name,
  description: team.description,
  distributionMethod: team.distributionMethod,
  dialogLimit: team.dialogLimit,
  autoRedistributionMinutes: team.autoRedistributionMinutes ?? '',
  autoClose: team.autoCloseMinutes === null ? 'none' : String(team.autoCloseMinutes),
  inactivityHours: team.inactivityHours,
  memberIds: team.members.map((m) => m.id),
});

const num = (v: number | string) => (v === '' ? null : Number(v));

/** Form values -> the teamCreateSchema body (minutes; null is "off"/"None"). */
export const teamPayload = (v: TeamFormValues) => ({
  name: v.name,
  description: v.description,
  distributionMethod: v.distributionMethod,
  dialogLimit: num(v.dialogLimit),
  autoRedistributionMinutes: num(v.autoRedistributionMinutes),
  autoCloseMinutes: v.autoClose === 'none' ? null : Number(v.autoClose),
  inactivityHours: num(v.inactivityHours),
  memberIds: v.memberIds,
});

/** Every §3 team field; read-only when the user may only view. */
export function TeamForm({ form, readOnly }: { form: UseFormReturnType<TeamFormValues>; readOnly: boolean }) {
  const { t } = useTranslation();
  const users = useUsers('', null);
  const ro = readOnlyProps(readOnly);
  const autoClose = AUTO_CLOSE_CHOICES.map((m) => ({
    value: m === null ? 'none' : String(m),
    label: m === null ? t('teams.autoCloseNone') : t('teams.autoCloseHours', { count: m / 60 }),
  }));
  if (!autoClose.some((o) => o.value === form.values.autoClose))
    autoClose.push({
      value: form.values.autoClose,
      label: t('common.minutes', { count: Number(form.values.autoClose) }),
    });
  return (
    <Stack gap="md">
      <TextInput label={t('teams.name')} withAsterisk={!readOnly} {...ro} {...form.getInputProps('name')} />
      <Textarea
        label={t('teams.description')}
        withAsterisk={!readOnly}
        autosize
        minRows={2}
        {...ro}
        {...form.getInputProps('description')}
      />
      <Select
        label={t('teams.distributionMethod')}
        withAsterisk={!readOnly}
        allowDeselect={false}
        {...ro}
        data={DISTRIBUTION_METHODS.map((m) => ({ value: m, label: t(`teams.${m}`) }))}
        {...form.getInputProps('distributionMethod')}
      />
      <SimpleGrid cols={2} spacing="md">
        <NumberInput
          label={t('teams.dialogLimit')}
          description={t('teams.dialogLimitHint')}
          withAsterisk={!readOnly}
          allowDecimal={false}
          hideControls={readOnly}
          {...ro}
          {...form.getInputProps('dialogLimit')}
        />
        <NumberInput
          label={t('teams.autoRedistribution')}
          description={t('teams.autoRedistributionHint')}
          allowDecimal={false}
          hideControls={readOnly}
          {...ro}
          {...form.getInputProps('autoRedistributionMinutes')}
        />
        <Select
          label={t('teams.autoClose')}
          description={t('teams.autoCloseHint')}
          allowDeselect={false}
          {...ro}
          data={autoClose}
          {...form.getInputProps('autoClose')}
          error={form.errors.autoClose ?? form.errors.autoCloseMinutes}
        />
        <NumberInput
          label={t('teams.inactivity')}
          description={t('teams.inactivityHint')}
          allowDecimal={false}
          hideControls={readOnly}
          {...ro}
          {...form.getInputProps('inactivityHours')}
        />
      </SimpleGrid>
      <MultiSelect
        label={t('teams.members')}
        placeholder={readOnly ? undefined : t('teams.membersPlaceholder')}
        searchable
        {...ro}
        data={(users.data?.items ?? []).map((u) => ({ value: u.id, label: u.name }))}
        {...form.getInputProps('memberIds')}
      />
    </Stack>
  );
}
