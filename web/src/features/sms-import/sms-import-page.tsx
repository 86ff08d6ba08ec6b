import { Button, Paper, Select, Stack, Title } from '@mantine/core';
import type { SmsImportDto } from '@smartconnect/contracts';
import { IconArrowLeft, IconDeviceMobileMessage, IconFileImport, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { useChannels } from '../channels/api.ts';
import { ImportList } from './import-list.tsx';
import { ImportView } from './import-view.tsx';
import { smsImportKeys } from './keys.ts';
import { UploadPanel } from './upload-panel.tsx';

/**
 * /admin/sms-imports (issue 33): an SMS service's export file imported into an `sms` channel — the channel, the
 * file, its columns when they are not known, its progress and summary; the earlier imports below. The channel
 * (`?channel=`) and the open import (`?import=`) are in the address.
 */
export function SmsImportPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const channels = useChannels();
  const sms = (channels.data ?? []).filter((c) => c.type === 'sms');
  const wanted = params.get('channel');
  const channelId = sms.find((c) => c.id === wanted)?.id ?? (sms.length === 1 ? sms[0].id : null);
  const openId = params.get('import');
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: key === 'channel' },
    );
  const uploaded = (dto: SmsImportDto) => {
    queryClient.setQueryData(smsImportKeys.one(dto.id), dto);
    void queryClient.invalidateQueries({ queryKey: smsImportKeys.lists });
    set('import', dto.id);
  };
  return (
    <Stack gap={0}>
      <PageHeader
        title={t('smsImport.title')}
        subtitle={t('smsImport.subtitle')}
        actions={
          <Button
            component={Link}
            to="/admin/mailings"
            variant="default"
            leftSection={<IconArrowLeft size={18} />}
          >
            {t('smsImport.back')}
          </Button>
        }
      />
      <Stack gap="lg">
        <Paper p="md">
          {channels.isLoading ? (
            <SectionLoader />
          ) : channels.isError && !channels.data ? (
            <ErrorState onRetry={() => void channels.refetch()} retrying={channels.isFetching} />
          ) : !sms.length ? (
            <EmptyState
              icon={<IconDeviceMobileMessage size={30} />}
              title={t('smsImport.noChannels')}
              text={t('smsImport.noChannelsHint')}
              action={
                <Button
                  component={Link}
                  to="/admin/preferences/channels"
                  leftSection={<IconPlus size={18} />}
                  data-testid="sms-create-channel"
                >
                  {t('smsImport.createChannel')}
                </Button>
              }
            />
          ) : openId ? (
            <Stack>
              <ImportView key={openId} id={openId} />
              <Button
                variant="default"
                leftSection={<IconFileImport size={18} />}
                onClick={() => set('import', null)}
                w="fit-content"
                data-testid="sms-import-another"
              >
                {t('smsImport.another')}
              </Button>
            </Stack>
          ) : (
            <Stack>
              <Select
                label={t('smsImport.channel')}
                description={t('smsImport.channelHint')}
                placeholder={t('smsImport.channelPlaceholder')}
                required
                data={sms.map((c) => ({ value: c.id, label: c.name }))}
                value={channelId}
                onChange={(v) => set('channel', v)}
                allowDeselect={false}
                w={420}
                maw="100%"
                data-testid="sms-import-channel"
              />
              <UploadPanel channelId={channelId} onUploaded={uploaded} />
            </Stack>
          )}
        </Paper>
        <Paper p={0}>
          <Title order={3} fz="lg" p="md" pb={0}>
            {t('smsImport.history')}
          </Title>
          <ImportList openId={openId} onOpen={(id) => set('import', id)} />
        </Paper>
      </Stack>
    </Stack>
  );
}
