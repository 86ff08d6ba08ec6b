import { Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import type { LandingRequestPage } from '@smartconnect/contracts';
import { IconInbox } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { landingKeys } from './keys.ts';

/** Preferences -> Landing requests (platform staff, RIGHT_OBSERVER): the landing page's trial requests, newest first. */
export function LandingRequestsPage() {
  const { t, i18n } = useTranslation();
  const list = useInfiniteQuery({
    queryKey: landingKeys.requests,
    queryFn: ({ pageParam }) =>
      get<LandingRequestPage>(
        `/api/landing-requests?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: 60_000,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const when = (iso: string) =>
    new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Paper p="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('landing.title')}
          </Title>
          {list.isSuccess && (
            <Text size="sm" c="dimmed">
              {t('landing.total', { count: total })}
            </Text>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('landing.hint')}
        </Text>
        {list.isPending ? (
          <SectionLoader />
        ) : list.isError ? (
          <ErrorState onRetry={() => list.refetch()} retrying={list.isFetching} />
        ) : items.length === 0 ? (
          <EmptyState icon={<IconInbox size={32} />} title={t('landing.empty')} />
        ) : (
          <>
            <ScrollArea
              type="auto"
              viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('landing.title') }}
            >
              <Table striped miw={720} data-testid="landing-requests">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('landing.createdAt')}</Table.Th>
                    <Table.Th>{t('landing.name')}</Table.Th>
                    <Table.Th>{t('landing.phone')}</Table.Th>
                    <Table.Th>{t('landing.company')}</Table.Th>
                    <Table.Th>{t('landing.form')}</Table.Th>
                    <Table.Th>{t('landing.language')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>{when(r.createdAt)}</Table.Td>
                      <Table.Td>{r.name ?? '—'}</Table.Td>
                      <Table.Td>
                        <a href={`tel:${r.phone}`}>{r.phone}</a>
                      </Table.Td>
                      <Table.Td>{r.company ?? '—'}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" tt="none">
                          {t(`landing.forms.${r.form}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{t(`landing.languages.${r.language}`)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            {list.hasNextPage && (
              <Button
                variant="default"
                onClick={() => list.fetchNextPage()}
                loading={list.isFetchingNextPage}
                style={{ alignSelf: 'center' }}
              >
                {t('landing.more')}
              </Button>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
