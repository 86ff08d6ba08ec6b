import { Badge, Button, Group, Paper, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBuilding, IconSearch, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess } from '../../shared/session.tsx';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable } from '../../shared/ui/list-table.tsx';
import { LoadMore } from '../../shared/ui/load-more.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useClientList, useCompanies, useStatuses, useUsers } from './api.ts';
import { StatusBadge } from './status-badge.tsx';

/** The clients list (/admin/clients): search by name, phone, e-mail or tag; filters; pages of 50 (keyset). */
export function ClientsPage() {
  const { t } = useTranslation();
  const { has } = useAccess();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [statusId, setStatusId] = useState<string | null>(null);
  const [companyId, setCompanyId] = useState<string | null>(null);
  const [managerId, setManagerId] = useState<string | null>(null);
  const list = useClientList({
    search: debounced,
    statusId: statusId ?? undefined,
    companyId: companyId ?? undefined,
    managerId: managerId ?? undefined,
  });
  const statuses = useStatuses(has('OPTION_PROFILE_STATUS'));
  const companies = useCompanies('');
  const users = useUsers();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <PageHeader
        title={t('clientProfiles.clientsTitle')}
        actions={
          <Button
            component={Link}
            to="/admin/clients/companies"
            variant="default"
            leftSection={<IconBuilding size={18} />}
          >
            {t('clientProfiles.companiesTitle')}
          </Button>
        }
      />
      <Paper p={0}>
        <Group p="md" gap="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput
            flex="1 1 220px"
            leftSection={<IconSearch size={16} />}
            aria-label={t('clientProfiles.searchPlaceholder')}
            placeholder={t('clientProfiles.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            data-testid="clients-search"
          />
          {has('OPTION_PROFILE_STATUS') && (
            <Select
              w={180}
              aria-label={t('clientProfiles.colStatus')}
              placeholder={t('clientProfiles.allStatuses')}
              clearable
              data={(statuses.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
              value={statusId}
              onChange={setStatusId}
            />
          )}
          <Select
            w={180}
            aria-label={t('clientProfiles.companies')}
            placeholder={t('clientProfiles.allCompanies')}
            clearable
            searchable
            data={(companies.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={companyId}
            onChange={setCompanyId}
          />
          <Select
            w={180}
            aria-label={t('clientProfiles.manager')}
            placeholder={t('clientProfiles.allManagers')}
            clearable
            searchable
            data={(users.data?.items ?? []).map((u) => ({ value: u.id, label: u.name }))}
            value={managerId}
            onChange={setManagerId}
          />
        </Group>
        {list.isLoading ? (
          <SectionLoader />
        ) : list.isError && !list.data ? (
          <ErrorState
            title={t('channels.cannotDisplay')}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        ) : !items.length ? (
          <EmptyState icon={<IconUsers size={30} />} title={t('clientProfiles.notFound')} />
        ) : (
          <ListTable
            minWidth={720}
            testId="clients-table"
            headings={[
              t('clientProfiles.colName'),
              t('clientProfiles.colContacts'),
              t('clientProfiles.colTags'),
              t('clientProfiles.colStatus'),
              t('clientProfiles.colManager'),
            ]}
          >
            {items.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" fw={600} component={Link} to={`/admin/clients/${c.id}`} c="brand.8">
                      <UserText>{c.name}</UserText>
                    </Text>
                    {c.blocked && (
                      <Badge size="xs" color="red.8">
                        {t('clientProfiles.blocked')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    <UserText>{c.details.map((d) => d.value).join(', ') || '—'}</UserText>
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    <UserText>{c.tags.join(', ') || '—'}</UserText>
                  </Text>
                </Table.Td>
                <Table.Td>{c.status ? <StatusBadge status={c.status} /> : '—'}</Table.Td>
                <Table.Td>
                  <UserText>{c.manager?.name ?? '—'}</UserText>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
        <LoadMore list={list}>{t('clientProfiles.loadMore')}</LoadMore>
      </Paper>
    </>
  );
}
