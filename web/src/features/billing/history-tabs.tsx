import { Anchor, Badge } from '@mantine/core';
import type { BillingDocumentDto } from '@smartconnect/contracts';
import { IconFileInvoice, IconReceipt } from '@tabler/icons-react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifyError } from '../../shared/notify.ts';
import { getToken } from '../../shared/storage.ts';
import { useDocuments, usePayments } from './api.ts';
import { formatDate, formatMoney, formatMonth, paymentNote, shortTransactionId } from './format.ts';
import { RecordTable } from './record-table.tsx';

/** /admin/finance/payments: §3 transactions (transaction id, date, type, amount, currency, notes). */
export function PaymentsTab() {
  const { t, i18n } = useTranslation();
  return (
    <RecordTable
      label={t('finance.payments')}
      query={usePayments()}
      empty={{ icon: <IconReceipt size={32} />, title: t('billing.noPayments') }}
      minWidth={760}
      testId="payments"
      columns={[
        {
          header: t('billing.transactionId'),
          cell: (p) => <span title={p.transactionId}>{shortTransactionId(p.transactionId)}</span>,
          td: { ff: 'monospace', fz: 'xs' },
        },
        {
          header: t('billing.date'),
          cell: (p) =>
            new Date(p.date).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
        },
        {
          header: t('billing.type'),
          cell: (p) => (
            <>
              {t(`billing.types.${p.type}`)}{' '}
              <Badge
                size="sm"
                variant="light"
                color={p.status === 'succeeded' ? 'green' : p.status === 'pending' ? 'yellow' : 'gray'}
              >
                {t(`billing.statusesPayment.${p.status}`)}
              </Badge>
            </>
          ),
        },
        { header: t('billing.amount'), cell: (p) => (p.type === 'charge' ? -p.amount : p.amount).toFixed(2) },
        { header: t('billing.currency'), cell: (p) => p.currency },
        { header: t('billing.notes'), cell: (p) => paymentNote(p.type, p.notes, t, i18n.language) },
      ]}
    />
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
  return (
    <RecordTable
      label={t('finance.billing')}
      query={useDocuments()}
      empty={{ icon: <IconFileInvoice size={32} />, title: t('billing.noDocuments') }}
      minWidth={720}
      testId="documents"
      columns={[
        {
          header: t('billing.document'),
          cell: (d) => (
            <>
              {t(`billing.kinds.${d.kind}`)}
              {d.period && ` · ${formatMonth(d.period, i18n.language)}`}
            </>
          ),
        },
        { header: t('billing.number'), cell: (d) => d.number },
        {
          header: t('billing.sumWithVat'),
          cell: (d) => (
            <>
              {formatMoney(d.sum, i18n.language)}{' '}
              <Badge size="xs" variant="outline" color="gray">
                {t('billing.vatIncluded', { vat: formatMoney(d.vat, i18n.language) })}
              </Badge>
            </>
          ),
        },
        {
          header: t('billing.paid'),
          cell: (d) => (
            <Badge variant="light" color={d.paid ? 'green' : 'orange'}>
              {t(d.paid ? 'billing.isPaid' : 'billing.notPaid')}
            </Badge>
          ),
        },
        { header: t('billing.releaseDate'), cell: (d) => formatDate(d.releaseDate, i18n.language) },
        {
          header: t('billing.link'),
          cell: (d) => (
            <Anchor component="button" type="button" onClick={() => void openPdf(d)}>
              PDF
            </Anchor>
          ),
        },
      ]}
    />
  );
}
