import { Badge, Paper, Table, Text } from '@mantine/core';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useWhatsAppTemplates } from './api.ts';

/** Preferences -> Templates -> WhatsApp: the templates registered at the provider, read-only (§2.6, §3). */
export function WhatsAppTemplatesPage() {
  const { t, i18n } = useTranslation();
  const list = useWhatsAppTemplates();
  return (
    <Paper p={0}>
      {list.isLoading ? (
        <SectionLoader />
      ) : list.isError && !list.data ? (
        <ErrorState onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : !list.data?.length ? (
        <EmptyState
          icon={<IconBrandWhatsapp size={30} />}
          title={t('templates.whatsappEmptyTitle')}
          text={t('templates.whatsappEmptyText')}
        />
      ) : (
        <ListTable
          minWidth={760}
          testId="whatsapp-templates-table"
          headings={[
            t('templates.waType'),
            t('templates.waRegistered'),
            t('templates.waHeader'),
            t('templates.text'),
            t('templates.waFooter'),
            t('templates.waButtons'),
            t('templates.waLanguage'),
          ]}
        >
          {list.data.map((w) => (
            <Table.Tr key={w.id}>
              <Table.Td>{w.type}</Table.Td>
              <Table.Td>
                {w.registeredAt ? new Date(w.registeredAt).toLocaleDateString(i18n.language) : '—'}
              </Table.Td>
              <Table.Td>
                <UserText>{w.header}</UserText>
              </Table.Td>
              <Table.Td maw={320}>
                <Text size="sm" lineClamp={3}>
                  <UserText>{w.text}</UserText>
                </Text>
              </Table.Td>
              <Table.Td>
                <UserText>{w.footer}</UserText>
              </Table.Td>
              <Table.Td>
                {w.buttons.map((b) => (
                  <Badge key={`${b.type}-${b.action}`} variant="light" tt="none" mr={4}>
                    {b.action}
                  </Badge>
                ))}
              </Table.Td>
              <Table.Td>{t(`languages.${w.language}`)}</Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
    </Paper>
  );
}
