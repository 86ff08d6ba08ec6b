import {
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { OrganisationDto } from '@smartconnect/contracts';
import { IconBuilding, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/errors.ts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { extendOrganisation, useOrganisations } from './api.ts';
import { CompanyDrawer } from './company-drawer.tsx';
import { formatDate, formatMoney } from './format.ts';

/** Preferences -> Companies (platform staff, RIGHT_OBSERVER): customer organisations, create, edit, extend. */
export function CompaniesPage() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const list = useOrganisations();
  const [editing, setEditing] = useState<OrganisationDto | null>(null);
  const [opened, setOpened] = useState(false);
  const extend = useMutation({
    mutationFn: (id: string) => extendOrganisation(id),
    onSuccess: async () => {
      notifySuccess(t('billing.extended'));
      await client.invalidateQueries({ queryKey: ['organisations'] });
    },
    onError: (err) => notifyError(isApiError(err) ? err.code : 'unknownException'),
  });
  const open = (org: OrganisationDto | null) => {
    setEditing(org);
    setOpened(true);
  };
  const items = list.data?.items ?? [];
  return (
    <Paper p="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('preferences.companies')}
          </Title>
          <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
            {t('billing.newCompany')}
          </Button>
        </Group>
        {list.isPending ? (
          <SectionLoader />
        ) : list.isError ? (
          <ErrorState onRetry={() => list.refetch()} retrying={list.isFetching} />
        ) : items.length === 0 ? (
          <EmptyState icon={<IconBuilding size={32} />} title={t('billing.noCompanies')} />
        ) : (
          <ScrollArea
            type="auto"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('preferences.companies') }}
          >
            <Table striped miw={960} data-testid="companies">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('billing.login')}</Table.Th>
                  <Table.Th>{t('billing.name')}</Table.Th>
                  <Table.Th>{t('billing.adminEmail')}</Table.Th>
                  <Table.Th>{t('billing.status')}</Table.Th>
                  <Table.Th>{t('billing.tariff')}</Table.Th>
                  <Table.Th>{t('billing.paidUntil')}</Table.Th>
                  <Table.Th>{t('billing.balance')}</Table.Th>
                  <Table.Th>{t('billing.lastChange')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('billing.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((o) => (
                  <Table.Tr key={o.id} data-testid={`company-${o.login}`}>
                    <Table.Td>{o.login}</Table.Td>
                    <Table.Td>{o.name}</Table.Td>
                    <Table.Td>{o.adminEmail}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={o.status === 'active' ? 'green' : 'gray'}>
                        {t(`billing.statuses.${o.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{o.tariffName}</Table.Td>
                    <Table.Td data-testid="paid-until">
                      {o.paidUntil ? formatDate(o.paidUntil, i18n.language) : '—'}
                    </Table.Td>
                    <Table.Td>{formatMoney(o.balance, i18n.language)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{new Date(o.updatedAt).toLocaleDateString(i18n.language)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => open(o)}>
                          {t('billing.edit')}
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => extend.mutate(o.id)}
                          loading={extend.isPending && extend.variables === o.id}
                          disabled={!o.paidUntil || o.status !== 'active'}
                        >
                          {t('billing.extend')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
      <CompanyDrawer org={editing} opened={opened} onClose={() => setOpened(false)} />
    </Paper>
  );
}
