import { Anchor, Badge, Paper, ScrollArea, Table } from '@mantine/core';
import type { BillingDocumentDto } from '@smartconnect/contracts';
import { IconFileInvoice, IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../shared/notify.ts';
import { getToken } from '../../shared/storage.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { useDocuments, usePayments } from './api.ts';
import { formatDate, formatMoney } from './format.ts';

/** /admin/finance/payments: §3 transactions (transaction id, date, type, amount, currency, notes). */
export function PaymentsTab() {
  const { t, i18n } = useTranslation();
  const list = usePayments();
  if (list.isPending) return <SectionLoader />;
  if (list.isError) return <ErrorState onRetry={() => list.refetch()} retrying={list.isFetching} />;
  const items = list.data.items;
  if (!items.length)
    return (
      <Paper p="md">
        <EmptyState icon={<IconReceipt size={32} />} title={t('billing.noPayments')} />
      </Paper>
    );
  return (
    <Paper p="md">
      <ScrollArea
        type="auto"
        viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('finance.payments') }}
      >
        <Table striped miw={760} data-testid="payments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('billing.transactionId')}</Table.Th>
              <Table.Th>{t('billing.date')}</Table.Th>
              <Table.Th>{t('billing.type')}</Table.Th>
              <Table.Th>{t('billing.amount')}</Table.Th>
              <Table.Th>{t('billing.currency')}</Table.Th>
              <Table.Th>{t('billing.notes')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td ff="monospace" fz="xs">
                  {p.transactionId}
                </Table.Td>
                <Table.Td>
                  {new Date(p.date).toLocaleString(i18n.language, {
                    dateStyle: 'medium',
                    timeStyle: 'short',
                  })}
                </Table.Td>
                <Table.Td>
                  {t(`billing.types.${p.type}`)}{' '}
                  <Badge
                    size="sm"
                    variant="light"
                    color={p.status === 'succeeded' ? 'green' : p.status === 'pending' ? 'yellow' : 'gray'}
                  >
                    {t(`billing.statusesPayment.${p.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{(p.type === 'charge' ? -p.amount : p.amount).toFixed(2)}</Table.Td>
                <Table.Td>{p.currency}</Table.Td>
                <Table.Td>{p.notes}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Paper>
  );
}

/** Opens a document's PDF (the API needs the bearer token, so it is fetched and shown from memory). */
async function openPdf(doc: BillingDocumentDto) {
  const tab = window.open('', '_blank');
  const res = await fetch(doc.link, { headers: { authorization: `Bearer ${getToken() ?? ''}` } });
  if (!res.ok) {
    tab?.close();
    return notifyError('documentNotFoundException');
  }
  const url = URL.createObjectURL(await res.blob());
  if (tab) tab.location.href = url;
  else window.location.assign(url);
}

/** /admin/finance/billing: acts, invoices and facturas (number, sum with VAT, paid or not, release date, PDF). */
export function BillingTab() {
  const { t, i18n } = useTranslation();
  const list = useDocuments();
  if (list.isPending) return <SectionLoader />;
  if (list.isError) return <ErrorState onRetry={() => list.refetch()} retrying={list.isFetching} />;
  const items = list.data.items;
  if (!items.length)
    return (
      <Paper p="md">
        <EmptyState icon={<IconFileInvoice size={32} />} title={t('billing.noDocuments')} />
      </Paper>
    );
  return (
    <Paper p="md">
      <ScrollArea
        type="auto"
        viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('finance.billing') }}
      >
        <Table striped miw={720} data-testid="documents">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('billing.document')}</Table.Th>
              <Table.Th>{t('billing.number')}</Table.Th>
              <Table.Th>{t('billing.sumWithVat')}</Table.Th>
              <Table.Th>{t('billing.paid')}</Table.Th>
              <Table.Th>{t('billing.releaseDate')}</Table.Th>
              <Table.Th>{t('billing.link')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>{t(`billing.kinds.${d.kind}`)}</Table.Td>
                <Table.Td>{d.number}</Table.Td>
                <Table.Td>
                  {formatMoney(d.sum, i18n.language)}{' '}
                  <Badge size="xs" variant="outline" color="gray">
                    {t('billing.vatIncluded', { vat: formatMoney(d.vat, i18n.language) })}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={d.paid ? 'green' : 'orange'}>
                    {t(d.paid ? 'billing.isPaid' : 'billing.notPaid')}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatDate(d.releaseDate, i18n.language)}</Table.Td>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => void openPdf(d)}>
                    PDF
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Paper>
  );
}
