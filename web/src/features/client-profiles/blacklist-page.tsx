import { Button, Group, Paper, Table, Text } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable } from '../../shared/ui/list-table.tsx';
import { LoadMore } from '../../shared/ui/load-more.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { unblockClient, useClientList, useRefreshClients } from './api.ts';

/** Preferences -> black-list: the blocked clients, each with an Unblock action. */
export function BlacklistPage() {
  const { t } = useTranslation();
  const list = useClientList({ blocked: true });
  const refresh = useRefreshClients();
  const unblock = useMutation({
    mutationFn: (id: string) => unblockClient(id),
    onSuccess: async (p) => {
      notifySuccess(t('clientProfiles.unblockedToast'));
      await refresh(p.id);
    },
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Paper p={0}>
      <Group p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Text fw={650} size="lg" component="h2">
          {t('clientProfiles.blacklistTitle')}
        </Text>
      </Group>
      {list.isLoading ? (
        <SectionLoader />
      ) : list.isError && !list.data ? (
        <ErrorState onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : !items.length ? (
        <EmptyState icon={<IconBan size={30} />} title={t('clientProfiles.blacklistEmpty')} />
      ) : (
        <ListTable
          minWidth={420}
          testId="blacklist-table"
          headings={[t('clientProfiles.colName'), { w: 140 }]}
        >
          {items.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>
                <Text size="sm" component={Link} to={`/admin/clients/${c.id}`} c="brand.8">
                  <UserText>{c.name}</UserText>
                </Text>
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  loading={unblock.isPending}
                  onClick={() => unblock.mutate(c.id)}
                >
                  {t('clientProfiles.unblock')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
      <LoadMore list={list}>{t('clientProfiles.loadMore')}</LoadMore>
    </Paper>
  );
}
