import { Alert, Checkbox, Drawer, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type Right, type RoleDto, roleCreateSchema } from '@smartconnect/contracts';
import { IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { legibleWhenDisabled, readOnlyProps } from '../../shared/ui/read-only.ts';
import { createRole, type RoleInput, updateRole, useAssignableRights } from './api.ts';
import { roleKeys } from './keys.ts';

type Props = { role: RoleDto | null; opened: boolean; onClose: () => void };

/** Create or edit a custom role with the §6 rights as checkboxes; built-in roles open read-only. */
export function RoleDrawer({ role, opened, onClose }: Props) {
  const { t } = useTranslation();
  const readOnly = !!role?.builtIn;
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={t(readOnly ? 'roles.viewTitle' : role ? 'roles.editTitle' : 'roles.newTitle')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && <RoleEditor key={role?.id ?? 'new'} role={role} readOnly={readOnly} onClose={onClose} />}
    </Drawer>
  );
}

function RoleEditor({
  role,
  readOnly,
  onClose,
}: {
  role: RoleDto | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const rights = useAssignableRights();
  const form = useForm<RoleInput>({
    // A built-in role is shown in the interface language, as in the list.
    initialValues: {
      name: role?.builtIn ? t(`roleNames.${role.builtIn}`, role.name) : (role?.name ?? ''),
      description: role?.builtIn
        ? t(`roleDescriptions.${role.builtIn}`, role.description)
        : (role?.description ?? ''),
      rights: role?.rights ?? [],
    },
    validate: zodValidate(roleCreateSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: RoleInput) => (role ? updateRole(role.id, v) : createRole(v)),
    onSuccess: async () => {
      notifySuccess(t(role ? 'roles.changed' : 'roles.created'));
      await client.invalidateQueries({ queryKey: roleKeys.all });
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  const all: Right[] = rights.data?.rights ?? [];
  const shown = readOnly ? [...new Set([...all, ...(role?.rights ?? [])])] : all;
  // Without the list of rights the role cannot be shown or saved truthfully.
  if (rights.isLoading) return <SectionLoader />;
  if (rights.isError && !rights.data)
    return <ErrorState onRetry={() => void rights.refetch()} retrying={rights.isFetching} />;
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        {readOnly && (
          <Alert variant="light" color="gray" icon={<IconLock size={18} />}>
            {t('roles.readOnly')}
          </Alert>
        )}
        <TextInput
          label={t('roles.name')}
          withAsterisk={!readOnly}
          {...readOnlyProps(readOnly)}
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('roles.description')}
          withAsterisk={!readOnly}
          autosize
          minRows={2}
          {...readOnlyProps(readOnly)}
          {...form.getInputProps('description')}
        />
        <Checkbox.Group label={t('roles.rights')} {...form.getInputProps('rights')}>
          <Stack gap="xs" mt="xs">
            {shown.map((r) => (
              <Checkbox
                key={r}
                value={r}
                disabled={readOnly}
                styles={readOnly ? legibleWhenDisabled : undefined}
                label={t(`rights.${r}`)}
                description={
                  <Text span size="xs" c="dimmed" ff="monospace">
                    {r}
                  </Text>
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <FormActions onClose={onClose} readOnly={readOnly} creating={!role} pending={save.isPending} />
      </Stack>
    </form>
  );
}
