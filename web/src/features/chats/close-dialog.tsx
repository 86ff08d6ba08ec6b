import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import type { ChatDto } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../app/session.tsx';
import { isApiError } from '../../shared/api/errors.ts';
import { translateError } from '../../shared/i18n/index.ts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { closeChat, useCategories } from './api.ts';
import { NoCategories } from './no-categories.tsx';
import { useChatChanged } from './use-chat-cache.ts';

/**
 * Close confirmation; with OPTION_CATEGORY the request category is required here (§2.6, §8) and checked
 * before the call. An organisation without categories is told so, and who may create one does it in place.
 */
export function CloseDialog({
  chat,
  opened,
  onClose,
  onClosedChat,
}: {
  chat: ChatDto;
  opened: boolean;
  onClose: () => void;
  /** After the chat was closed (not when the dialog is dismissed). */
  onClosedChat?: () => void;
}) {
  const { t } = useTranslation();
  const changed = useChatChanged();
  const withCategory = useAccess().has('OPTION_CATEGORY');
  const categories = useCategories(opened && withCategory);
  const [category, setCat] = useState<string | null>(chat.category?.id ?? null);
  const [error, setError] = useState<string | null>(null);
  const list = categories.data ?? [];
  const none = withCategory && categories.isSuccess && list.length === 0;
  const close = useMutation({
    mutationFn: () => closeChat(chat.id, (withCategory && category) || undefined),
    // The category's refusals belong under its field; anything else is a toast from the code.
    meta: { form: true },
    onSuccess: (c) => {
      changed(c);
      notifySuccess(t('chat.closedToast'));
      onClose();
      onClosedChat?.();
    },
    onError: (err) => {
      if (!isApiError(err) || err.status === 0 || err.code === 'unauthorizedException') return;
      if (err.code === 'closeWithoutCategoryException' || err.code === 'categoryNotFoundException') {
        setError(translateError(err.code));
        void categories.refetch();
      } else notifyError(err.code);
    },
  });
  const submit = () => {
    if (withCategory && !category) setError(translateError('closeWithoutCategoryException'));
    else close.mutate();
  };
  const choose = (id: string | null) => {
    setCat(id);
    setError(null);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('chat.closeTitle')}>
      <Stack>
        <Text size="sm">{t('chat.closeText')}</Text>
        {none ? (
          <NoCategories onCreated={choose} />
        ) : (
          withCategory && (
            <Select
              label={t('chat.category')}
              placeholder={categories.isLoading ? t('common.loading') : t('chat.categoryPlaceholder')}
              data={list.map((c) => ({ value: c.id, label: c.name }))}
              value={category}
              onChange={choose}
              clearable
              withAsterisk
              disabled={categories.isLoading}
              error={categories.isError ? t('common.loadFailed') : error}
              nothingFoundMessage={t('chat.nothingFound')}
              comboboxProps={{ withinPortal: true }}
            />
          )
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color="red" loading={close.isPending} disabled={none} onClick={submit} data-autofocus>
            {t('chat.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
