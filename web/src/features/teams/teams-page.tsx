import { Alert, Button, Group, Paper, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import type { TeamDto } from '@smartconnect/contracts';
import { IconLock, IconPencil, IconPlus, IconSearch, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { useAccess } from '../../shared/session.tsx';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { deleteTeam, useTeams } from './api.ts';
import { teamKeys } from './keys.ts';
import { TeamDrawer } from './team-drawer.tsx';

/** /admin/teams/all: list with search, add, edit side page, delete with confirmation; read-only without the right. */
export function TeamsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canEdit = useAccess().can('AUTHORITY_TEAMS_UPDATE');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const teams = useTeams(debounced);
  const [drawer, setDrawer] = useState<{ team: TeamDto | null } | null>(null);
  const remove = useMutation({
    mutationFn: (team: TeamDto) => deleteTeam(team.id),
    onSuccess: async () => {
      notifySuccess(t('teams.deleted'));
      await client.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
  const confirmDelete = (team: TeamDto) =>
    modals.openConfirmModal({
      title: t('teams.deleteTitle'),
      children: <Text size="sm">{t('teams.deleteText', { name: isolate(team.name) })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(team),
    });
  const items = teams.data ?? [];
  const autoClose = (m: number | null) =>
    m === null
      ? t('teams.autoCloseNone')
      : m % 60 === 0
        ? t('teams.autoCloseHours', { count: m / 60 })
        : t('common.minutes', { count: m });

  return (
    <>
      <PageHeader
        title={t('teams.title')}
        subtitle={t('teams.subtitle')}
        actions={
          canEdit && (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setDrawer({ team: null })}>
              {t('teams.add')}
            </Button>
          )
        }
      />
      {!canEdit && (
        <Alert
          variant="light"
          color="gray"
          icon={<IconLock size={18} />}
          mb="lg"
          data-testid="teams-read-only"
        >
          {t('teams.readOnly')}
        </Alert>
      )}
      <Paper p={0}>
        <Group p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput
            placeholder={t('teams.search')}
            aria-label={t('teams.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={300}
          />
        </Group>
        {teams.isLoading ? (
          <SectionLoader />
        ) : teams.isError && !teams.data ? (
          <ErrorState onRetry={() => void teams.refetch()} retrying={teams.isFetching} />
        ) : items.length === 0 ? (
          <EmptyState
            icon={<IconUsersGroup size={30} />}
            title={debounced ? t('teams.notFound') : t('teams.empty')}
            text={debounced ? undefined : t('teams.emptyHint')}
          />
        ) : (
          <ListTable
            minWidth={760}
            testId="teams-table"
            headings={[
              t('teams.colName'),
              t('teams.colMembers'),
              t('teams.colDistribution'),
              t('teams.colDialogLimit'),
              t('teams.colAutoClose'),
              { w: 90 },
            ]}
          >
            {items.map((team) => (
              <Table.Tr
                key={team.id}
                className="sc-table-row"
                onClick={() => setDrawer({ team })}
                data-testid={`team-${team.name}`}
              >
                <Table.Td maw={320}>
                  <Text size="sm" fw={600}>
                    <UserText>{team.name}</UserText>
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    <UserText>{team.description}</UserText>
                  </Text>
                </Table.Td>
                <Table.Td>{team.memberCount}</Table.Td>
                <Table.Td>{t(`teams.${team.distributionMethod}`)}</Table.Td>
                <Table.Td>{team.dialogLimit}</Table.Td>
                <Table.Td>{autoClose(team.autoCloseMinutes)}</Table.Td>
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  {canEdit && (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <RowAction
                        label={t('common.edit')}
                        icon={<IconPencil size={18} />}
                        onClick={() => setDrawer({ team })}
                      />
                      <RowAction
                        label={t('common.delete')}
                        color="red"
                        icon={<IconTrash size={18} />}
                        onClick={() => confirmDelete(team)}
                      />
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </Paper>
      <TeamDrawer
        opened={!!drawer}
        team={drawer?.team ?? null}
        readOnly={!canEdit}
        onClose={() => setDrawer(null)}
      />
    </>
  );
}
