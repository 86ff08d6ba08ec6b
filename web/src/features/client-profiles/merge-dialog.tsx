import { Alert, Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { MergePreviewDto } from '@smartconnect/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isolate } from '../../shared/bidi.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { mergeClients, previewMerge, useClientList, useRefreshClients } from './api.ts';

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
  const options = new Map(picked.map((c) => [c.id, c.name]));
  for (const c of found.data?.pages.flatMap((p) => p.items) ?? [])
    if (c.id !== target.id) options.set(c.id, c.name);
  const ids = picked.map((c) => c.id);
  const preview = useQuery({
    queryKey: ['merge-preview', target.id, ids],
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
        <MultiSelect
          label={t('clientProfiles.mergeSelected')}
          placeholder={t('clientProfiles.mergeSearch')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: o }) => o}
          data={[...options].map(([value, label]) => ({ value, label }))}
          value={ids}
          onChange={(v) => setPicked(v.map((id) => ({ id, name: options.get(id) ?? id })))}
          nothingFoundMessage={debounced ? t('clientProfiles.notFound') : undefined}
          data-testid="merge-pick"
        />
        {preview.data && <MergePreviewText preview={preview.data} />}
        <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="merge-warning">
          {t('clientProfiles.mergeWarning')}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
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
