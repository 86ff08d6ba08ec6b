import {
  ActionIcon,
  Button,
  Drawer,
  Group,
  MultiSelect,
  Select,
  Stack,
  Switch,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type ClientProfileDto,
  type ClientProfileUpdate,
  clientProfileUpdateSchema,
  SESSION_STATUSES,
  type SessionStatus,
} from '@smartconnect/contracts';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { useAccess } from '../../shared/session.tsx';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { updateProfile, useCompanies, useRefreshClients, useStatuses, useUsers } from './api.ts';

type Values = {
  name: string;
  phones: string[];
  emails: string[];
  tags: string[];
  fields: { key: string; name: string; value: string }[];
  statusId: string | null;
  companyIds: string[];
  managerId: string | null;
  sessionStatus: SessionStatus | null;
  spam: boolean;
  /** Receives advertising mailings (the opposite of the client's opt-out). */
  advertising: boolean;
};

const toBody = (v: Values): Partial<ClientProfileUpdate> => ({
  name: v.name,
  tags: v.tags,
  fields: v.fields.map((f) => ({ name: f.name, value: f.value })),
  companyIds: v.companyIds,
  managerId: v.managerId,
  sessionStatus: v.sessionStatus,
  spam: v.spam,
  advertisingOptOut: !v.advertising,
  contacts: [
    ...v.phones.map((value) => ({ kind: 'phone' as const, value })),
    ...v.emails.map((value) => ({ kind: 'email' as const, value })),
  ],
});

/** The client profile's side page: every field of §3 "Customer profile" in one form, saved at once. */
export function ProfileDrawer({
  profile,
  opened,
  onClose,
}: {
  profile: ClientProfileDto;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={opened}
      onClose={onClose}
      position="right"
      title={t('clientProfiles.editTitle')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && <ProfileForm key={profile.id} profile={profile} onClose={onClose} />}
    </Drawer>
  );
}

function ProfileForm({ profile, onClose }: { profile: ClientProfileDto; onClose: () => void }) {
  const { t } = useTranslation();
  const { has } = useAccess();
  const refresh = useRefreshClients();
  const statuses = useStatuses(has('OPTION_PROFILE_STATUS'));
  const companies = useCompanies('');
  const users = useUsers();
  const form = useForm<Values>({
    initialValues: {
      name: profile.name,
      phones: profile.details.filter((d) => d.kind === 'phone').map((d) => d.value),
      emails: profile.details.filter((d) => d.kind === 'email').map((d) => d.value),
      tags: profile.tags,
      fields: profile.fields.map((f, i) => ({ key: `f${i}`, ...f })),
      statusId: profile.status?.id ?? null,
      companyIds: profile.companies.map((c) => c.id),
      managerId: profile.manager?.id ?? null,
      sessionStatus: profile.sessionStatus,
      spam: profile.spam,
      advertising: profile.advertisingOptedOutAt === null,
    },
    validate: zodValidate(clientProfileUpdateSchema, (v: Values) => toBody(v)),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: Values) =>
      updateProfile(profile.id, {
        ...toBody(v),
        ...(has('OPTION_PROFILE_STATUS') ? { statusId: v.statusId } : {}),
      }),
    onSuccess: async () => {
      notifySuccess(t('clientProfiles.saved'));
      await refresh(profile.id);
      onClose();
    },
    onError: (err) => showServerErrors(form, err, { 'contacts.0.value': 'phones' }),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))} data-testid="profile-form">
      <Stack gap="sm">
        <TextInput
          label={t('clientProfiles.name')}
          withAsterisk
          data-autofocus
          {...form.getInputProps('name')}
        />
        <TagsInput
          label={t('clientProfiles.phones')}
          description={t('clientProfiles.contactsHint')}
          {...form.getInputProps('phones')}
          error={
            form.errors.phones ?? Object.entries(form.errors).find(([k]) => k.startsWith('contacts'))?.[1]
          }
          data-testid="profile-phones"
        />
        <TagsInput
          label={t('clientProfiles.emails')}
          {...form.getInputProps('emails')}
          data-testid="profile-emails"
        />
        <TagsInput
          label={t('clientProfiles.tags')}
          {...form.getInputProps('tags')}
          error={form.errors.tags ?? form.errors['tags.0']}
          data-testid="profile-tags"
        />
        {has('OPTION_PROFILE_STATUS') && (
          <Select
            label={t('clientProfiles.status')}
            placeholder={t('clientProfiles.noStatus')}
            clearable
            data={(statuses.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            {...form.getInputProps('statusId')}
            data-testid="profile-status"
          />
        )}
        <Select
          label={t('clientProfiles.sessionStatus')}
          clearable
          data={SESSION_STATUSES.map((s) => ({ value: s, label: t(`clientProfiles.sessionStatuses.${s}`) }))}
          {...form.getInputProps('sessionStatus')}
          data-testid="profile-session-status"
        />
        <MultiSelect
          label={t('clientProfiles.companies')}
          searchable
          data={(companies.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          {...form.getInputProps('companyIds')}
        />
        <Select
          label={t('clientProfiles.manager')}
          placeholder={t('clientProfiles.noManager')}
          clearable
          searchable
          data={(users.data?.items ?? []).map((u) => ({ value: u.id, label: u.name }))}
          {...form.getInputProps('managerId')}
        />
        <Stack gap={6} role="group" aria-label={t('clientProfiles.fields')}>
          {form.values.fields.map((f, i) => (
            <Group key={f.key} gap={6} align="flex-start" wrap="nowrap">
              <TextInput
                flex={1}
                aria-label={t('clientProfiles.fieldName')}
                placeholder={t('clientProfiles.fieldName')}
                {...form.getInputProps(`fields.${i}.name`)}
              />
              <TextInput
                flex={1}
                aria-label={t('clientProfiles.fieldValue')}
                placeholder={t('clientProfiles.fieldValue')}
                {...form.getInputProps(`fields.${i}.value`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={6}
                aria-label={t('clientProfiles.removeField')}
                onClick={() => form.removeListItem('fields', i)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() =>
              form.insertListItem('fields', { key: `n${Date.now()}${Math.random()}`, name: '', value: '' })
            }
            style={{ alignSelf: 'flex-start' }}
          >
            {t('clientProfiles.addField')}
          </Button>
        </Stack>
        <Switch label={t('clientProfiles.spam')} {...form.getInputProps('spam', { type: 'checkbox' })} />
        <Switch
          label={t('clientProfiles.advertising')}
          description={t('clientProfiles.advertisingHint')}
          data-testid="profile-advertising"
          {...form.getInputProps('advertising', { type: 'checkbox' })}
        />
        <FormActions onClose={onClose} readOnly={false} creating={false} pending={save.isPending} />
      </Stack>
    </form>
  );
}
