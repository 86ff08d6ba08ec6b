import { Badge, Button, Group, Paper, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { RoleDto } from '@smartconnect/contracts';
import { IconEye, IconPencil, IconPlus, IconShieldCheck, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { deleteRole, useAssignableRights, useRoles } from './api.ts';
import { roleKeys } from './keys.ts';
import { RoleDrawer } from './role-drawer.tsx';

/** Preferences -> Roles: built-in roles read-only, custom roles created, edited and deleted (irreversibly). */
export function RolesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const roles = useRoles();
  const rights = useAssignableRights();
  const [drawer, setDrawer] = useState<{ role: RoleDto | null } | null>(null);
  const remove = useMutation({
    mutationFn: (role: RoleDto) => deleteRole(role.id),
    onSuccess: async () => {
      notifySuccess(t('roles.deleted'));
      await client.invalidateQueries({ queryKey: roleKeys.all });
    },
  });
  const confirmDelete = (role: RoleDto) =>
    modals.openConfirmModal({
      title: t('roles.deleteTitle'),
      children: <Text size="sm">{t('roles.deleteText', { name: isolate(role.name) })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(role),
    });
  const total = rights.data?.rights.length ?? 0;
  const name = (r: RoleDto) => (r.builtIn ? t(`roleNames.${r.builtIn}`, r.name) : r.name);

  return (
    <Paper p={0}>
      <Group justify="space-between" p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <div>
          <Text fw={650} size="lg">
            {t('roles.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('roles.subtitle')}
          </Text>
        </div>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setDrawer({ role: null })}>
          {t('roles.add')}
        </Button>
      </Group>
      {roles.isLoading ? (
        <SectionLoader />
      ) : roles.isError && !roles.data ? (
        <ErrorState onRetry={() => void roles.refetch()} retrying={roles.isFetching} />
      ) : !roles.data?.length ? (
        <EmptyState icon={<IconShieldCheck size={30} />} title={t('roles.title')} />
      ) : (
        <ListTable
          minWidth={640}
          testId="roles-table"
          headings={[
            t('roles.colName'),
            t('roles.colDescription'),
            t('roles.colRights'),
            t('roles.colUsers'),
            { w: 90 },
          ]}
        >
          {roles.data.map((role) => (
            <Table.Tr
              key={role.id}
              className="sc-table-row"
              onClick={() => setDrawer({ role })}
              data-testid={`role-${role.name}`}
            >
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" fw={600}>
                    <UserText>{name(role)}</UserText>
                  </Text>
                  <Badge
                    size="xs"
                    variant="light"
                    color={role.builtIn ? 'gray' : 'brand'}
                    style={{ flexShrink: 0 }}
                  >
                    {role.builtIn ? t('roles.builtIn') : t('roles.custom')}
                  </Badge>
                </Group>
              </Table.Td>
              <Table.Td maw={320}>
                <Text size="sm" c="dimmed" lineClamp={1}>
                  <UserText>
                    {role.builtIn
                      ? t(`roleDescriptions.${role.builtIn}`, role.description)
                      : role.description}
                  </UserText>
                </Text>
              </Table.Td>
              <Table.Td>{t('roles.rightsCount', { count: role.rights.length, total })}</Table.Td>
              <Table.Td>{role.userCount}</Table.Td>
              <Table.Td onClick={(e) => e.stopPropagation()}>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  {role.builtIn ? (
                    <RowAction
                      label={t('common.view')}
                      icon={<IconEye size={18} />}
                      onClick={() => setDrawer({ role })}
                    />
                  ) : (
                    <>
                      <RowAction
                        label={t('common.edit')}
                        icon={<IconPencil size={18} />}
                        onClick={() => setDrawer({ role })}
                      />
                      <RowAction
                        label={t('common.delete')}
                        color="red"
                        icon={<IconTrash size={18} />}
                        onClick={() => confirmDelete(role)}
                      />
                    </>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
      <RoleDrawer opened={!!drawer} role={drawer?.role ?? null} onClose={() => setDrawer(null)} />
    </Paper>
  );
}
