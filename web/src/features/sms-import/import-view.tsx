import { Alert, Badge, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { SmsImportDto } from '@smartconnect/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useSmsImport } from './api.ts';
import { smsImportKeys } from './keys.ts';
import { MappingForm } from './mapping-form.tsx';
import { SmsImportStatusBadge } from './status.tsx';

const KNOWN_ERRORS = [
  'file_missing',
  'columns_not_chosen',
  'not_a_table',
  'encoding',
  'too_large',
  'too_many_rows',
  'broken',
  'no_rows',
];

/** One import: its column choice while it waits, its progress while it runs, then its summary. */
export function ImportView({ id }: { id: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const q = useSmsImport(id);
  const item = q.data;
  const status = item?.status;
  // The list shows the import's figures too: asked for again when it changes state.
  useEffect(() => {
    if (status) void queryClient.invalidateQueries({ queryKey: smsImportKeys.lists });
  }, [status, queryClient]);
  if (q.isLoading) return <SectionLoader />;
  if (!item) return <ErrorState onRetry={() => void q.refetch()} retrying={q.isFetching} />;
  return (
    <Stack data-testid="sms-import-view" data-status={item.status}>
      <Group justify="space-between" align="flex-start" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Title order={3} fz="lg" style={{ overflowWrap: 'anywhere' }}>
            <UserText>{item.fileName}</UserText>
          </Title>
          <Text size="sm" c="gray.7">
            <UserText>{item.channel.name}</UserText>
          </Text>
        </div>
        <Group gap="xs">
          {item.detected && (
            <Badge variant="outline" color="gray" data-testid="sms-import-detected">
              {t(`smsImport.detected.${item.detected}`)}
            </Badge>
          )}
          <SmsImportStatusBadge status={item.status} />
        </Group>
      </Group>
      {item.status === 'mapping' ? (
        <MappingForm item={item} />
      ) : item.status === 'running' ? (
        <Running item={item} />
      ) : (
        <Summary item={item} />
      )}
    </Stack>
  );
}

function Running({ item }: { item: SmsImportDto }) {
  const { t } = useTranslation();
  const value = item.totalRows ? Math.round((item.processedRows / item.totalRows) * 100) : 0;
  return (
    <Stack gap={6} data-testid="sms-import-progress">
      <Progress value={value} size="lg" animated aria-label={t('smsImport.progressLabel')} />
      <Text size="sm" aria-live="polite">
        {t('smsImport.progress', { done: item.processedRows, total: item.totalRows })}
      </Text>
    </Stack>
  );
}

/** One figure of the summary, its name above its value. */
function FigureOf({ label, id, value, color }: { label: string; id: string; value: number; color?: string }) {
  return (
    <Paper withBorder p="sm" data-testid={`sms-import-${id}`}>
      <dl style={{ margin: 0 }}>
        <Text component="dt" size="xs" c="gray.7">
          {label}
        </Text>
        <Text component="dd" m={0} fz={24} fw={700} c={color}>
          {value}
        </Text>
      </dl>
    </Paper>
  );
}

function Summary({ item }: { item: SmsImportDto }) {
  const { t } = useTranslation();
  const error = item.error ?? '';
  const more = item.refused - item.refusals.length;
  return (
    <Stack data-testid="sms-import-summary">
      {item.status === 'failed' && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {t('smsImport.failed', {
            error: t(`smsImport.errorCodes.${KNOWN_ERRORS.includes(error) ? error : 'unknown'}`),
          })}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 3 }} data-testid="sms-import-figures">
        <FigureOf label={t('smsImport.imported')} id="imported" value={item.imported} color="teal.8" />
        <FigureOf label={t('smsImport.duplicates')} id="duplicates" value={item.duplicates} />
        <FigureOf
          label={t('smsImport.refused')}
          id="refused"
          value={item.refused}
          color={item.refused ? 'red.8' : undefined}
        />
      </SimpleGrid>
      {item.refusals.length > 0 && (
        <div>
          <Text size="sm" fw={600} mb={4} id={`refused-${item.id}`}>
            {t('smsImport.refusedRows')}
          </Text>
          <Table.ScrollContainer minWidth={300} type="native" mah={360} tabIndex={0}>
            <Table aria-labelledby={`refused-${item.id}`} striped data-testid="sms-import-refusals">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={90}>{t('smsImport.line')}</Table.Th>
                  <Table.Th>{t('smsImport.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {item.refusals.map((r) => (
                  <Table.Tr key={`${r.line}-${r.reason}`} data-testid="sms-import-refusal">
                    <Table.Td>{r.line}</Table.Td>
                    <Table.Td>{t(`smsImport.reasons.${r.reason}`)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {more > 0 && (
            <Text size="sm" c="gray.7" mt={4} data-testid="sms-import-more">
              {t('smsImport.more', { count: more })}
            </Text>
          )}
        </div>
      )}
    </Stack>
  );
}
