import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import type { ChatDto } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../app/session.tsx';
import { notifySuccess } from '../../shared/notify.ts';
import { closeChat, setCategory, useCategories } from './api.ts';
import { useChatChanged } from './use-chat-cache.ts';

/** Close confirmation; with OPTION_CATEGORY the request category is chosen here first (§2.6, §8). */
export function CloseDialog({
  chat,
  opened,
  onClose,
}: {
  chat: ChatDto;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const changed = useChatChanged();
  const withCategory = useAccess().has('OPTION_CATEGORY');
  const categories = useCategories(opened && withCategory);
  const [category, setCat] = useState<string | null>(chat.category?.id ?? null);
  const close = useMutation({
    mutationFn: async () => {
      if (withCategory && category && category !== chat.category?.id) await setCategory(chat.id, category);
      return closeChat(chat.id);
    },
    onSuccess: (c) => {
      changed(c);
      notifySuccess(t('chat.closedToast'));
      onClose();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('chat.closeTitle')}>
      <Stack>
        <Text size="sm">{t('chat.closeText')}</Text>
        {withCategory && (
          <Select
            label={t('chat.category')}
            placeholder={t('chat.categoryPlaceholder')}
            data={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={category}
            onChange={setCat}
            clearable
            nothingFoundMessage={t('chat.nothingFound')}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color="red" loading={close.isPending} onClick={() => close.mutate()} data-autofocus>
            {t('chat.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
