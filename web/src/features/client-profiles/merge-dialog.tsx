import { Alert, Badge, Button, Checkbox, Group, Modal, Pill, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { MergePreviewDto } from '@smartconnect/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { mergeClients, previewMerge, useClientList, useMergeSuggestions, useRefreshClients } from './api.ts';
import { clientKeys } from './keys.ts';

/** What a merge moves, in words (shown before the irreversible step). */
export function MergePreviewText({ preview }: { preview: MergePreviewDto }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" data-testid="merge-preview">
      {t('clientProfiles.mergePreview', { ...preview, tags: preview.tags.map(isolate).join(', ') || '—' })}
    </Text>
  );
}

/**
 * The chat screen's contact-merge dialog (§2.6): other clients found by name, phone, e-mail or tag are merged into
 * this one after a preview of what moves and a warning that it cannot be undone.
 */
export function MergeDialog({
  target,
  opened,
  onClose,
  initial = [],
}: {
  target: { id: string; name: string };
  opened: boolean;
  onClose: () => void;
  initial?: { id: string; name: string }[];
}) {
  const { t } = useTranslation();
  const refresh = useRefreshClients();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [picked, setPicked] = useState<{ id: string; name: string }[]>(initial);
  const found = useClientList({ search: debounced }, opened && debounced.trim().length > 0);
  const results = (found.data?.pages.flatMap((p) => p.items) ?? [])
    .filter((c) => c.id !== target.id)
    .slice(0, 8);
  const ids = picked.map((c) => c.id);
  // Suggested duplicates of this client (same phone, e-mail or name), one click each.
  const suggestions = useMergeSuggestions(opened);
  const suggested = new Map<string, { id: string; name: string; reason: string }>();
  for (const g of suggestions.data ?? [])
    if (g.clients.some((c) => c.id === target.id))
      for (const c of g.clients)
        if (c.id !== target.id && !ids.includes(c.id)) suggested.set(c.id, { ...c, reason: g.reason });
  const preview = useQuery({
    queryKey: clientKeys.mergePreview(target.id, ids),
    queryFn: () => previewMerge(target.id, ids),
    enabled: opened && ids.length > 0,
    retry: false,
  });
  const merge = useMutation({
    mutationFn: () => mergeClients(target.id, ids),
    onSuccess: async () => {
      notifySuccess(t('clientProfiles.merged'));
      setPicked([]);
      await refresh(target.id);
      onClose();
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t('clientProfiles.mergeTitle')}
      size="lg"
    >
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {t('clientProfiles.mergeInto', { name: isolate(target.name) })}
        </Text>
        <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="merge-warning">
          {t('clientProfiles.mergeWarning')}
        </Alert>
        {preview.data && <MergePreviewText preview={preview.data} />}
        <TextInput
          label={t('clientProfiles.mergeSelected')}
          placeholder={t('clientProfiles.mergeSearch')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-testid="merge-pick"
        />
        {picked.length > 0 && (
          <Group gap={6} data-testid="merge-picked">
            {picked.map((c) => (
              <Pill
                key={c.id}
                withRemoveButton
                onRemove={() => setPicked(picked.filter((p) => p.id !== c.id))}
                removeButtonProps={{ 'aria-label': `${t('common.delete')}: ${c.name}` }}
              >
                {isolate(c.name)}
              </Pill>
            ))}
          </Group>
        )}
        {debounced.trim() && (
          <Stack gap={4} role="group" aria-label={t('clientProfiles.mergeSearch')} data-testid="merge-found">
            {found.isFetching && !found.data ? (
              <Text size="xs" c="dimmed">
                {t('common.loading')}
              </Text>
            ) : results.length === 0 ? (
              <Text size="xs" c="dimmed">
                {t('clientProfiles.notFound')}
              </Text>
            ) : (
              results.map((c) => (
                <Checkbox
                  key={c.id}
                  label={isolate(c.name)}
                  checked={ids.includes(c.id)}
                  onChange={(e) =>
                    setPicked(
                      e.currentTarget.checked
                        ? [...picked, { id: c.id, name: c.name }]
                        : picked.filter((p) => p.id !== c.id),
                    )
                  }
                />
              ))
            )}
          </Stack>
        )}
        {suggested.size > 0 && (
          <Group gap={6} data-testid="merge-suggested">
            <Text size="xs" c="dimmed">
              {t('clientProfiles.mergeSuggestions')}:
            </Text>
            {[...suggested.values()].map((c) => (
              <Button
                key={c.id}
                size="compact-xs"
                variant="light"
                onClick={() => setPicked([...picked, { id: c.id, name: c.name }])}
                rightSection={
                  <Badge size="xs" variant="transparent" c="dimmed">
                    {t(`clientProfiles.reason.${c.reason}`)}
                  </Badge>
                }
              >
                {isolate(c.name)}
              </Button>
            ))}
          </Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red.8"
            disabled={!ids.length || !preview.data}
            loading={merge.isPending}
            onClick={() => merge.mutate()}
            data-testid="merge-confirm"
          >
            {t('clientProfiles.mergeConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
