import { Anchor, ScrollArea, Table } from '@mantine/core';
import type { MailingFiguresDto, MailingsReport } from '@smartconnect/contracts';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { ReportFrame } from './report-frame.tsx';
import { tableRegion, useReport } from './report-tabs.tsx';

const FIGURES: (keyof MailingFiguresDto)[] = [
  'recipients',
  'skipped',
  'sent',
  'delivered',
  'read',
  'failed',
  'replied',
  'optedOut',
];

/** Reports -> Mailings: the mailings started in the period with their figures now, and the totals (issue 33). */
export function MailingsTab() {
  const { t, i18n } = useTranslation();
  const query = useReport<MailingsReport>('mailings');
  const when = (iso: string, zone: string) =>
    dateFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone: zone }).format(
      new Date(iso),
    );
  return (
    <ReportFrame
      title={t('reports.mailings')}
      query={query}
      empty={(r) => r.rows.length === 0}
      zone={query.data?.period.timeZone}
      testId="mailings-report"
    >
      {(r) => (
        <ScrollArea type="auto" viewportProps={tableRegion(t('reports.mailings'))}>
          <Table striped miw={1000} data-testid="mailings-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('mailings.name')}</Table.Th>
                <Table.Th>{t('mailings.channel')}</Table.Th>
                <Table.Th>{t('mailings.marketingType')}</Table.Th>
                <Table.Th>{t('mailings.started')}</Table.Th>
                {FIGURES.map((f) => (
                  <Table.Th key={f}>{t(`mailings.stats.${f}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.rows.map((m) => (
                <Table.Tr key={m.id} data-testid="mailings-report-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/admin/mailings/${m.id}`} size="sm">
                      {m.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{m.channel.name}</Table.Td>
                  <Table.Td>{t(`mailings.marketing.${m.marketingType}`)}</Table.Td>
                  <Table.Td>{when(m.startedAt, r.period.timeZone)}</Table.Td>
                  {FIGURES.map((f) => (
                    <Table.Td key={f}>{m.figures[f]}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr data-testid="mailings-report-total">
                <Table.Th colSpan={4}>{t('reports.mailingsTotal')}</Table.Th>
                {FIGURES.map((f) => (
                  <Table.Th key={f}>{r.totals[f]}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </ScrollArea>
      )}
    </ReportFrame>
  );
}
