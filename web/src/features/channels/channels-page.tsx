import { Paper, Title } from '@mantine/core';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconPlugConnected } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifyMessage, notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { useChannels } from './api.ts';
import { AvailableTypes } from './available-types.tsx';
import { ChannelGuideModal } from './channel-guide-modal.tsx';
import { ChannelList } from './channel-list.tsx';
import { channelKeys } from './keys.ts';
import { channelUi } from './types/registry.ts';
import type { ChannelTypeUi } from './types/types.ts';

/** /admin/preferences/channels: the connected channels, and the types to connect through their guides (§2.6). */
export function ChannelsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const channels = useChannels();
  const [guide, setGuide] = useState<ChannelTypeUi | null>(null);
  // Back from a provider's login (`?connect=<type>&grant=...`): that type's guide opens at its settings; a refused
  // login (`&error=accessDenied`) is the type's toast ('Instagram access denied (retry login later)').
  const [search, setSearch] = useSearchParams();
  const returning = search.get('connect');
  useEffect(() => {
    const ui = returning ? channelUi(returning) : undefined;
    if (!ui) return;
    if (search.get('error')) {
      notifyMessage(t(`messengers.${ui.type}.accessDenied`));
      setSearch({}, { replace: true });
    } else if (search.get('grant')) setGuide(ui);
  }, [returning, search, setSearch, t]);
  const closeGuide = () => {
    setGuide(null);
    if (returning) setSearch({}, { replace: true });
  };
  const [created, setCreated] = useState<ChannelCreatedDto | null>(null);
  const items = channels.data ?? [];
  const Created = created ? channelUi(created.type)?.Created : undefined;
  return (
    <>
      <Paper p={0} mb="lg">
        <Title order={3} fz="lg" p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          {t('channels.connected')}
        </Title>
        {channels.isLoading ? (
          <SectionLoader />
        ) : channels.isError && !channels.data ? (
          <ErrorState
            title={t('channels.cannotDisplay')}
            onRetry={() => void channels.refetch()}
            retrying={channels.isFetching}
          />
        ) : items.length === 0 ? (
          <EmptyState
            icon={<IconPlugConnected size={30} />}
            title={t('channels.empty')}
            text={t('channels.emptyHint')}
          />
        ) : (
          <ChannelList items={items} />
        )}
      </Paper>
      <AvailableTypes onConnect={setGuide} />
      <ChannelGuideModal
        ui={guide}
        onClose={closeGuide}
        resumeAtSettings={!!returning && guide?.type === returning}
        onCreated={(c) => {
          closeGuide();
          notifySuccess(t('channels.created'));
          if (channelUi(c.type)?.Created) setCreated(c);
          void client.invalidateQueries({ queryKey: channelKeys.all });
        }}
      />
      {created && Created && <Created channel={created} onClose={() => setCreated(null)} />}
    </>
  );
}
