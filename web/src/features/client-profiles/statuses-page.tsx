import {
  Button,
  ColorSwatch,
  Drawer,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import {
  CLIENT_STATUS_COLOR_NAMES,
  CLIENT_STATUS_COLORS,
  type ClientStatusColor,
  type ClientStatusDto,
  clientStatusSchema,
} from '@smartconnect/contracts';
import { IconPencil, IconPlus, IconTags, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { createStatus, deleteStatus, updateStatus, useRefreshClients, useStatuses } from './api.ts';
import { StatusBadge } from './status-badge.tsx';

type Values = { name: string; color: ClientStatusColor };

function StatusForm({ status, onClose }: { status: ClientStatusDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshClients();
  const form = useForm<Values>({
    initialValues: { name: status?.name ?? '', color: status?.color ?? 'blue' },
    validate: zodValidate(clientStatusSchema),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: Values) => (status ? updateStatus(status.id, v) : createStatus(v)),
    onSuccess: async () => {
      notifySuccess(t(status ? 'clientProfiles.statusChanged' : 'clientProfiles.statusCreated'));
      await refresh();
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))} data-testid="status-form">
      <Stack gap="sm">
        <TextInput
          label={t('clientProfiles.statusName')}
          withAsterisk
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Select
          label={t('clientProfiles.statusColor')}
          withAsterisk
          allowDeselect={false}
          data={CLIENT_STATUS_COLOR_NAMES.map((c) => ({ value: c, label: t(`clientProfiles.colors.${c}`) }))}
          leftSection={<ColorSwatch size={16} color={CLIENT_STATUS_COLORS[form.values.color]} />}
          renderOption={({ option }) => (
            <Group gap="xs">
              <ColorSwatch size={16} color={CLIENT_STATUS_COLORS[option.value as ClientStatusColor]} />
              {option.label}
            </Group>
          )}
          {...form.getInputProps('color')}
          data-testid="status-color"
        />
        <Group>
          <StatusBadge
            status={{ name: form.values.name || '—', hex: CLIENT_STATUS_COLORS[form.values.color] }}
          />
        </Group>
        <FormActions onClose={onClose} readOnly={false} creating={!status} pending={save.isPending} />
      </Stack>
    </form>
  );
}

/** Preferences -> statuses (§3 Customer status): name and one colour of the 13-colour palette. */
export function StatusesPage() {
  const { t } = useTranslation();
  const statuses = useStatuses();
  const refresh = useRefreshClients();
  const [drawer, setDrawer] = useState<{ status: ClientStatusDto | null } | null>(null);
  const remove = useMutation({
    mutationFn: (s: ClientStatusDto) => deleteStatus(s.id),
    onSuccess: async () => {
      notifySuccess(t('clientProfiles.statusDeleted'));
      await refresh();
    },
  });
  const confirmDelete = (s: ClientStatusDto) =>
    modals.openConfirmModal({
      title: t('clientProfiles.statusDeleteTitle'),
      children: <Text size="sm">{isolate(s.name)}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(s),
    });
  return (
    <Paper p={0}>
      <Group justify="space-between" p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Text fw={650} size="lg" component="h2">
          {t('clientProfiles.statusesTitle')}
        </Text>
        <Button
          leftSection={<IconPlus size={18} />}
          onClick={() => setDrawer({ status: null })}
          data-testid="add-status"
        >
          {t('clientProfiles.statusAdd')}
        </Button>
      </Group>
      {statuses.isLoading ? (
        <SectionLoader />
      ) : statuses.isError && !statuses.data ? (
        <ErrorState onRetry={() => void statuses.refetch()} retrying={statuses.isFetching} />
      ) : !statuses.data?.length ? (
        <EmptyState icon={<IconTags size={30} />} title={t('clientProfiles.statusesTitle')} />
      ) : (
        <ListTable
          minWidth={420}
          testId="statuses-table"
          headings={[t('clientProfiles.statusName'), t('clientProfiles.statusClients'), { w: 90 }]}
        >
          {statuses.data.map((s) => (
            <Table.Tr key={s.id} data-testid={`status-${s.name}`}>
              <Table.Td>
                <StatusBadge status={s} />
              </Table.Td>
              <Table.Td>{s.clients}</Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <RowAction
                    label={t('common.edit')}
                    icon={<IconPencil size={18} />}
                    onClick={() => setDrawer({ status: s })}
                  />
                  <RowAction
                    label={t('common.delete')}
                    color="red"
                    icon={<IconTrash size={18} />}
                    onClick={() => confirmDelete(s)}
                  />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
      <Drawer
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={!!drawer}
        onClose={() => setDrawer(null)}
        position="right"
        title={t(drawer?.status ? 'clientProfiles.statusEdit' : 'clientProfiles.statusAdd')}
      >
        {drawer && <StatusForm status={drawer.status} onClose={() => setDrawer(null)} />}
      </Drawer>
    </Paper>
  );
}
