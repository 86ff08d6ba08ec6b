import { Anchor, Table, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useSmsImports } from './api.ts';
import { SmsImportStatusBadge } from './status.tsx';

/** The organisation's earlier imports, newest first; one opens its progress or summary above. */
export function ImportList({ openId, onOpen }: { openId: string | null; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const list = useSmsImports(null);
  const items = list.data?.items ?? [];
  const when = dateFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  if (list.isLoading) return <SectionLoader />;
  if (list.isError && !list.data)
    return <ErrorState onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  if (!items.length)
    return (
      <EmptyState
        icon={<IconFileImport size={30} />}
        title={t('smsImport.empty')}
        text={t('smsImport.emptyHint')}
      />
    );
  return (
    <ListTable
      minWidth={720}
      testId="sms-imports-table"
      headings={[
        t('smsImport.fileName'),
        t('smsImport.channel'),
        t('smsImport.date'),
        t('smsImport.statusLabel'),
        t('smsImport.figures'),
      ]}
    >
      {items.map((i) => (
        <Table.Tr
          key={i.id}
          data-testid="sms-import-row"
          style={i.id === openId ? { boxShadow: 'inset 4px 0 0 var(--mantine-color-brand-6)' } : undefined}
        >
          <Table.Td maw={280} miw={140}>
            <Anchor
              component="button"
              type="button"
              fw={600}
              size="sm"
              ta="start"
              style={{ wordBreak: 'break-word' }}
              aria-current={i.id === openId ? 'true' : undefined}
              aria-label={t('smsImport.open', { name: isolate(i.fileName) })}
              onClick={() => onOpen(i.id)}
            >
              <UserText>{i.fileName}</UserText>
            </Anchor>
          </Table.Td>
          <Table.Td>
            <Text size="sm">
              <UserText>{i.channel.name}</UserText>
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{when.format(new Date(i.createdAt))}</Text>
          </Table.Td>
          <Table.Td>
            <SmsImportStatusBadge status={i.status} />
          </Table.Td>
          <Table.Td>
            <Text size="sm" data-testid="sms-import-row-figures">
              {i.status === 'mapping'
                ? '—'
                : t('smsImport.figuresLine', {
                    imported: i.imported,
                    duplicates: i.duplicates,
                    refused: i.refused,
                  })}
            </Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
