import { Button, Group, Paper, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { UserDto } from '@smartconnect/contracts';
import { IconPlus, IconSearch, IconUserSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess } from '../../shared/session.tsx';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable } from '../../shared/ui/list-table.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { useTeams } from '../teams/api.ts';
import { useUsers } from './api.ts';
import { UserRow } from './user-row.tsx';
import { UserTeamsModal } from './user-teams-modal.tsx';

/** /admin/users/all: search by name, team filter (default 'All teams'), the §2.6 columns. */
export function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { can } = useAccess();
  const [search, setSearch] = useState('');
  const [team, setTeam] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const users = useUsers(debounced, team);
  const teams = useTeams();
  const canEdit = can('RIGHT_ACCOUNT_CONTROL');
  const canChangeTeams = !canEdit && can('AUTHORITY_TEAMS_UPDATE');
  const [teamsOf, setTeamsOf] = useState<UserDto | null>(null);
  const items = users.data?.items ?? [];

  return (
    <>
      <PageHeader
        title={t('users.title')}
        subtitle={t('users.subtitle')}
        actions={
          canEdit && (
            <Button component={Link} to="/admin/users/edit" leftSection={<IconPlus size={18} />}>
              {t('users.add')}
            </Button>
          )
        }
      />
      <Paper p={0}>
        <Group p="md" gap="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput
            placeholder={t('users.search')}
            aria-label={t('users.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={300}
          />
          <Select
            aria-label={t('users.colTeams')}
            data={[
              { value: '', label: t('users.allTeams') },
              ...(teams.data ?? []).map((tm) => ({ value: tm.id, label: tm.name })),
            ]}
            value={team ?? ''}
            onChange={(v) => setTeam(v || null)}
            allowDeselect={false}
            w={220}
            data-testid="team-filter"
          />
          {users.data && (
            <Text size="sm" c="dimmed" ml="auto">
              {t('common.total', { count: users.data.total })}
            </Text>
          )}
        </Group>
        {users.isLoading ? (
          <SectionLoader />
        ) : users.isError && !users.data ? (
          <ErrorState onRetry={() => void users.refetch()} retrying={users.isFetching} />
        ) : items.length === 0 ? (
          <EmptyState
            icon={<IconUserSearch size={30} />}
            title={t('users.notFound')}
            text={t('users.notFoundHint')}
          />
        ) : (
          <ListTable
            minWidth={860}
            testId="users-table"
            headings={[
              t('users.colName'),
              t('users.colEmail'),
              t('users.colTeams'),
              t('users.colRole'),
              t('users.colAccount'),
              t('users.colLastActivity'),
            ]}
          >
            {items.map((u) => (
              <UserRow
                key={u.id}
                user={u}
                onOpen={
                  canEdit
                    ? () => navigate(`/admin/users/edit/${u.id}`)
                    : canChangeTeams
                      ? () => setTeamsOf(u)
                      : undefined
                }
              />
            ))}
          </ListTable>
        )}
      </Paper>
      <UserTeamsModal user={teamsOf} onClose={() => setTeamsOf(null)} />
    </>
  );
}
