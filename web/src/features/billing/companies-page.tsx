import { Badge, Button, Group, Text } from '@mantine/core';
import type { OrganisationDto } from '@smartconnect/contracts';
import { IconBuilding, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { extendOrganisation, useOrganisations } from './api.ts';
import { CompanyDrawer } from './company-drawer.tsx';
import { formatDate, formatMoney } from './format.ts';
import { billingKeys } from './keys.ts';
import { RecordTable } from './record-table.tsx';

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
      await client.invalidateQueries({ queryKey: billingKeys.organisations });
    },
    onError: (err) => notifyError(isApiError(err) ? err.code : 'unknownException'),
  });
  const open = (org: OrganisationDto | null) => {
    setEditing(org);
    setOpened(true);
  };
  return (
    <RecordTable
      label={t('preferences.companies')}
      title
      action={
        <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
          {t('billing.newCompany')}
        </Button>
      }
      query={list}
      empty={{ icon: <IconBuilding size={32} />, title: t('billing.noCompanies') }}
      minWidth={960}
      testId="companies"
      rowTestId={(o) => `company-${o.login}`}
      columns={[
        { header: t('billing.login'), cell: (o) => o.login },
        { header: t('billing.name'), cell: (o) => o.name },
        { header: t('billing.adminEmail'), cell: (o) => o.adminEmail },
        {
          header: t('billing.status'),
          cell: (o) => (
            <>
              <Badge variant="light" color={o.status === 'active' ? 'green' : 'gray'}>
                {t(`billing.statuses.${o.status}`)}
              </Badge>
              {o.suspended && (
                <Badge variant="light" color="red" ml={4} data-testid="suspended">
                  {t('billing.suspended')}
                </Badge>
              )}
            </>
          ),
        },
        { header: t('billing.tariff'), cell: (o) => o.tariffName },
        {
          header: t('billing.paidUntil'),
          cell: (o) => (o.paidUntil ? formatDate(o.paidUntil, i18n.language) : '—'),
          td: { 'data-testid': 'paid-until' },
        },
        { header: t('billing.balance'), cell: (o) => formatMoney(o.balance, i18n.language) },
        {
          header: t('billing.lastChange'),
          cell: (o) => <Text size="sm">{new Date(o.updatedAt).toLocaleDateString(i18n.language)}</Text>,
        },
        {
          header: t('billing.actions'),
          hidden: true,
          cell: (o) => (
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
          ),
        },
      ]}
    >
      <CompanyDrawer org={editing} opened={opened} onClose={() => setOpened(false)} />
    </RecordTable>
  );
}
