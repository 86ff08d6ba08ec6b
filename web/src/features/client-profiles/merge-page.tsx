import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { MergeSuggestionDto } from '@smartconnect/contracts';
import { IconArrowMerge } from '@tabler/icons-react';
import { useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { useMergeSuggestions } from './api.ts';
import { MergeDialog } from './merge-dialog.tsx';

/**
 * Preferences -> merge-contacts: suggested duplicates (same phone, e-mail or name); choosing the client to keep opens
 * the merge dialog with the others, its preview and the irreversible warning.
 */
export function MergeContactsPage() {
  const { t } = useTranslation();
  const suggestions = useMergeSuggestions();
  const [merge, setMerge] = useState<{
    target: { id: string; name: string };
    others: { id: string; name: string }[];
  } | null>(null);
  const keep = (g: MergeSuggestionDto, target: { id: string; name: string }) =>
    setMerge({ target, others: g.clients.filter((c) => c.id !== target.id) });
  return (
    <Paper p={0}>
      <Group p="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Text fw={650} size="lg" component="h2">
          {t('clientProfiles.mergePageTitle')}
        </Text>
      </Group>
      {suggestions.isLoading ? (
        <SectionLoader />
      ) : suggestions.isError && !suggestions.data ? (
        <ErrorState onRetry={() => void suggestions.refetch()} retrying={suggestions.isFetching} />
      ) : !suggestions.data?.length ? (
        <EmptyState icon={<IconArrowMerge size={30} />} title={t('clientProfiles.noSuggestions')} />
      ) : (
        <Stack p="md" gap="md" data-testid="merge-suggestions">
          <Text size="sm" fw={600}>
            {t('clientProfiles.mergeSuggestions')}
          </Text>
          {suggestions.data.map((g) => (
            <Paper key={`${g.reason}:${g.value}`} withBorder p="sm">
              <Group gap="xs" mb="xs">
                <Badge variant="light" color="gray">
                  {t(`clientProfiles.reason.${g.reason}`)}
                </Badge>
                <Text size="sm">{isolate(g.value)}</Text>
              </Group>
              <Group gap="xs">
                {g.clients.map((c) => (
                  <Button key={c.id} size="xs" variant="default" onClick={() => keep(g, c)}>
                    {t('clientProfiles.keep')}: {isolate(c.name)}
                  </Button>
                ))}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {merge && (
        <MergeDialog
          key={merge.target.id}
          target={merge.target}
          initial={merge.others}
          opened
          onClose={() => setMerge(null)}
        />
      )}
    </Paper>
  );
}
