import {
  MultiSelect,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Language, UserDto } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess, useCurrentUser } from '../../shared/session.tsx';
import { readOnlyProps } from '../../shared/ui/read-only.ts';
import { useRoles } from '../roles/api.ts';
import { useTeams } from '../teams/api.ts';
import { formatDateTime } from './api.ts';

export type UserFormValues = {
  name: string;
  email: string;
  phone: string;
  roleId: string;
  teamIds: string[];
  breakTimeoutMinutes: number | string;
  password: string;
  repeatPassword: string;
  active: boolean;
  language: Language;
};

/**
 * Form values -> API body: empty phone/timeout mean "none"; an empty password on edit keeps the old one.
 * On edit the account's activity is not sent: Deactivate/Activate changes it at once, on its own.
 */
export function toUserPayload(v: UserFormValues, isNew: boolean) {
  const body: Record<string, unknown> = {
    ...v,
    phone: v.phone.trim() === '' ? null : v.phone.trim(),
    breakTimeoutMinutes: v.breakTimeoutMinutes === '' ? null : Number(v.breakTimeoutMinutes),
  };
  if (!isNew) delete body.active;
  if (!isNew && v.password === '' && v.repeatPassword === '') {
    delete body.password;
    delete body.repeatPassword;
  }
  return body;
}

type Form = UseFormReturnType<UserFormValues>;

/** The §3 user fields; `user` is the saved account when editing (organisation, last activity). */
export function UserMainFields({ form, user }: { form: Form; user?: UserDto }) {
  const { t, i18n } = useTranslation();
  const me = useCurrentUser();
  // §3 affiliation: the organisation the account belongs to, which only a privileged user could change.
  const organisation =
    !user || user.organisationId === me.organisation.id ? me.organisation.name : user.organisationId;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextInput label={t('users.name')} withAsterisk {...form.getInputProps('name')} />
      <TextInput label={t('users.email')} withAsterisk type="email" {...form.getInputProps('email')} />
      <TextInput
        label={t('users.phone')}
        description={t('users.phoneHint')}
        inputMode="numeric"
        {...form.getInputProps('phone')}
      />
      <NumberInput
        label={t('users.breakTimeout')}
        description={t('users.breakTimeoutHint')}
        allowDecimal={false}
        allowNegative={false}
        hideControls
        {...form.getInputProps('breakTimeoutMinutes')}
      />
      <Select
        label={t('users.language')}
        data={[
          { value: 'eng', label: t('languages.eng') },
          { value: 'rus', label: t('languages.rus') },
        ]}
        allowDeselect={false}
        {...form.getInputProps('language')}
      />
      <TextInput label={t('users.organisation')} value={organisation} {...readOnlyProps(true)} />
      {user ? (
        <TextInput
          label={t('users.colLastActivity')}
          value={formatDateTime(user.lastActivityAt, i18n.language) ?? t('common.never')}
          {...readOnlyProps(true)}
        />
      ) : (
        <Switch label={t('users.active')} mt="xs" {...form.getInputProps('active', { type: 'checkbox' })} />
      )}
    </SimpleGrid>
  );
}

export function UserAccessFields({ form }: { form: Form }) {
  const { t } = useTranslation();
  const roles = useRoles();
  const teams = useTeams();
  // Changing a user's teams is AUTHORITY_TEAMS_UPDATE ("change user team"); the server refuses it otherwise.
  const mayChangeTeams = useAccess().can('AUTHORITY_TEAMS_UPDATE');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Select
        label={t('users.role')}
        placeholder={t('users.rolePlaceholder')}
        withAsterisk
        data={(roles.data ?? []).map((r) => ({
          value: r.id,
          label: r.builtIn ? t(`roleNames.${r.builtIn}`, r.name) : r.name,
        }))}
        {...form.getInputProps('roleId')}
      />
      <MultiSelect
        label={t('users.teams')}
        placeholder={t('users.teamsPlaceholder')}
        data={(teams.data ?? []).map((tm) => ({ value: tm.id, label: tm.name }))}
        searchable
        disabled={!mayChangeTeams}
        {...form.getInputProps('teamIds')}
      />
    </SimpleGrid>
  );
}

export function UserPasswordFields({ form, isNew }: { form: Form; isNew: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {!isNew && (
        <Text size="sm" c="dimmed" mt={-8}>
          {t('users.passwordEditHint')}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <PasswordInput
          label={t('users.password')}
          withAsterisk={isNew}
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('users.repeatPassword')}
          withAsterisk={isNew}
          autoComplete="new-password"
          {...form.getInputProps('repeatPassword')}
        />
      </SimpleGrid>
    </Stack>
  );
}
