import { Paper, Stack } from '@mantine/core';
import { IconClockCheck } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { EmptyState } from '../../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../../shared/ui/full-loader.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ChatList } from '../chat-list.tsx';
import { flatten, useChatPages } from '../list/list-api.ts';

const FILTER_OF = { waiting: 'waiting', in_progress: 'assigned', closed: 'closed' } as const;

/** /admin/chats/expired: open chats past their channel's 'expired' threshold without an answer (§2.6). */
export function ExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const chats = useChatPages('expired', {});
  const items = flatten(chats.data);
  return (
    <Stack gap="lg">
      <PageHeader title={t('workspace.expiredTitle')} subtitle={t('workspace.expiredHint')} />
      <Paper
        p={0}
        h="calc(100vh - 220px)"
        mih={360}
        style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      >
        {chats.isLoading ? (
          <SectionLoader />
        ) : chats.isError ? (
          <ErrorState onRetry={() => void chats.refetch()} />
        ) : items.length === 0 ? (
          <EmptyState icon={<IconClockCheck size={28} />} title={t('workspace.expiredEmpty')} color="gray" />
        ) : (
          <ChatList
            items={items}
            selected={null}
            onSelect={(id) => {
              const chat = items.find((c) => c.id === id);
              navigate(`/admin/chats?filter=${FILTER_OF[chat?.status ?? 'waiting']}&chat=${id}`);
            }}
            onEnd={() => {
              if (chats.hasNextPage && !chats.isFetchingNextPage) void chats.fetchNextPage();
            }}
          />
        )}
      </Paper>
    </Stack>
  );
}
