import {
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import type { MessageHitDto } from '@smartconnect/contracts';
import { IconSearch, IconSearchOff } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import {
  type SearchFilters,
  searchClients,
  searchMessages,
  useFilterOptions,
} from '../chats/list/list-api.ts';
import { searchKeys } from './keys.ts';

const FILTER_OF = { waiting: 'waiting', in_progress: 'assigned', closed: 'closed' } as const;
const KEYS = ['channelId', 'teamId', 'operatorId', 'status', 'from', 'to'] as const;

/** The chat center's address of a found message: its chat in the right list, scrolled to the message. */
export const hitLink = (h: MessageHitDto) =>
  `/admin/chats?filter=${FILTER_OF[h.chat.status]}&chat=${h.chatId}&message=${h.id}`;

function Hit({ hit }: { hit: MessageHitDto }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  return (
    <UnstyledButton
      onClick={() => navigate(hitLink(hit))}
      p="sm"
      data-testid="search-hit"
      title={t('workspace.openChat')}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)', display: 'block', width: '100%' }}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            <UserText>{hit.chat.client.name}</UserText>
          </Text>
          <Badge size="xs" variant="light" color="gray">
            <UserText>{hit.chat.channel.name}</UserText>
          </Badge>
          <Badge size="xs" variant="outline">
            {t(`chat.status.${hit.chat.status}`)}
          </Badge>
          {hit.internal && (
            <Badge size="xs" color="yellow" variant="light">
              {t('workspace.internalNote')}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(
            new Date(hit.createdAt),
          )}
        </Text>
      </Group>
      <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {hit.author ? (
          <Text span c="dimmed" size="sm">
            <UserText>{hit.author.name}</UserText>:{' '}
          </Text>
        ) : null}
        {hit.snippet.map((p, i) =>
          p.match ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts of one text, in order
            <mark key={i} data-testid="search-match">
              {p.text}
            </mark>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts of one text, in order
            <span key={i}>{p.text}</span>
          ),
        )}
      </Text>
    </UnstyledButton>
  );
}

/**
 * /admin/expanded-search?q=<text>[&channelId&teamId&operatorId&status&from&to] (OPTION_EXTENDED_SEARCH): messages
 * (full-text, Russian and English word forms) and clients; a found message opens its chat at that message.
 */
export function SearchPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const filters: SearchFilters = Object.fromEntries(
    KEYS.map((k) => [k, params.get(k) ?? undefined]).filter(([, v]) => v),
  );
  const api: SearchFilters = {
    ...filters,
    from: filters.from ? new Date(`${filters.from}T00:00:00`).toISOString() : undefined,
    to: filters.to
      ? new Date(new Date(`${filters.to}T00:00:00`).getTime() + 86_400_000).toISOString()
      : undefined,
  };
  const [text, setText] = useState(q);
  const options = useFilterOptions();
  const messages = useInfiniteQuery({
    queryKey: searchKeys.messages(q, api),
    queryFn: ({ pageParam }) => searchMessages(q, api, pageParam || undefined),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !!q,
  });
  const clients = useQuery({
    queryKey: searchKeys.clients(q, api),
    queryFn: () => searchClients(q, api),
    enabled: !!q,
  });
  const set = (patch: Record<string, string | null | undefined>) => {
    const next: Record<string, string> = {};
    for (const [k, v] of Object.entries({ q, ...filters, ...patch })) if (v) next[k] = v;
    setParams(next);
  };
  const hits = messages.data?.pages.flatMap((p) => p.items) ?? [];
  const choose = (
    key: 'channelId' | 'teamId' | 'operatorId',
    label: string,
    data: { id: string; name: string }[],
  ) => (
    <Select
      label={label}
      placeholder={t('workspace.any')}
      clearable
      searchable
      data={data.map((d) => ({ value: d.id, label: d.name }))}
      value={filters[key] ?? null}
      onChange={(v) => set({ [key]: v })}
    />
  );
  return (
    <Stack gap="lg">
      <PageHeader title={t('workspace.searchTitle')} subtitle={t('workspace.searchHint')} />
      <Paper p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            set({ q: text.trim() });
          }}
        >
          <Group gap="sm" align="flex-end" wrap="nowrap">
            <TextInput
              flex={1}
              label={t('workspace.searchPlaceholder')}
              leftSection={<IconSearch size={16} />}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              data-testid="search-input"
            />
            <Button type="submit">{t('workspace.searchSubmit')}</Button>
          </Group>
        </form>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }} mt="sm" spacing="sm">
          {choose('channelId', t('workspace.channel'), options.data?.channels ?? [])}
          {choose('teamId', t('workspace.team'), options.data?.teams ?? [])}
          {!!options.data?.operators.length &&
            choose('operatorId', t('workspace.operator'), options.data.operators)}
          <Select
            label={t('workspace.status')}
            placeholder={t('workspace.anyStatus')}
            clearable
            data={(['waiting', 'in_progress', 'closed'] as const).map((s) => ({
              value: s,
              label: t(`chat.status.${s}`),
            }))}
            value={filters.status ?? null}
            onChange={(v) => set({ status: v })}
          />
          <TextInput
            type="date"
            label={t('workspace.from')}
            value={filters.from ?? ''}
            onChange={(e) => set({ from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={t('workspace.to')}
            value={filters.to ?? ''}
            onChange={(e) => set({ to: e.currentTarget.value })}
          />
        </SimpleGrid>
      </Paper>
      {q && (
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          <Paper p={0} style={{ gridColumn: 'span 2', overflow: 'hidden' }}>
            <Text fw={650} p="sm" component="h2">
              {t('workspace.messages')}
            </Text>
            {messages.isLoading ? (
              <SectionLoader />
            ) : messages.isError ? (
              <ErrorState onRetry={() => void messages.refetch()} />
            ) : hits.length === 0 ? (
              <EmptyState icon={<IconSearchOff size={28} />} title={t('workspace.noResults')} color="gray" />
            ) : (
              <Stack gap={0} data-testid="search-results">
                {hits.map((h) => (
                  <Hit key={h.id} hit={h} />
                ))}
                {messages.hasNextPage && (
                  <Button
                    variant="subtle"
                    m="sm"
                    loading={messages.isFetchingNextPage}
                    onClick={() => void messages.fetchNextPage()}
                  >
                    {t('workspace.loadMore')}
                  </Button>
                )}
              </Stack>
            )}
          </Paper>
          <Paper p={0} style={{ overflow: 'hidden' }}>
            <Text fw={650} p="sm" component="h2">
              {t('workspace.clients')}
            </Text>
            {clients.isLoading ? (
              <SectionLoader />
            ) : (clients.data?.items ?? []).length === 0 ? (
              <Text size="sm" c="dimmed" p="sm">
                {t('workspace.clientNotFound')}
              </Text>
            ) : (
              <Stack gap={0} data-testid="client-results">
                {clients.data?.items.map((c) => (
                  <UnstyledButton
                    key={c.id}
                    p="sm"
                    style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                    disabled={!c.lastChat}
                    onClick={() =>
                      c.lastChat &&
                      navigate(
                        `/admin/chats?filter=${FILTER_OF[c.lastChat.status as keyof typeof FILTER_OF]}&chat=${c.lastChat.id}`,
                      )
                    }
                  >
                    <Text size="sm" fw={600}>
                      <UserText>{c.name}</UserText>
                    </Text>
                    <Text size="xs" c="dimmed">
                      <UserText>
                        {c.contacts.map((x) => `${x.channelName}: ${x.externalId}`).join(', ')}
                      </UserText>
                    </Text>
                  </UnstyledButton>
                ))}
              </Stack>
            )}
          </Paper>
        </SimpleGrid>
      )}
    </Stack>
  );
}
