import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import type { CategoryDto, ChatDto } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { useAccess } from '../../shared/session.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { flatten, pathText, useCategoryTree } from '../categories/api.ts';
import { closeChat } from './api.ts';
import { NoCategories } from './no-categories.tsx';
import { useChatChanged } from './use-chat-cache.ts';

/** Options grouped by top category; each labelled by its whole path (what the field shows and search matches). */
function categoryOptions(list: CategoryDto[]) {
  return list.map((top) => ({
    group: top.name,
    items: flatten([top]).map((n) => ({ value: n.id, label: pathText(n.path) })),
  }));
}

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
  const categories = useCategoryTree(opened && withCategory, chat.team.id);
  const [category, setCat] = useState<string | null>(chat.category?.id ?? null);
  const [error, setError] = useState<string | null>(null);
  const list = categories.data ?? [];
  const data = categoryOptions(list);
  // In the list an option reads under its category's heading: the theme, or 'Theme › Subtheme'.
  const shortLabel = new Map(
    flatten(list).map((n) => [n.id, n.level === 1 ? n.name : pathText(n.path.slice(1))]),
  );
  if (chat.category && !flatten(list).some((n) => n.id === chat.category?.id))
    data.push({ group: '—', items: [{ value: chat.category.id, label: pathText(chat.category.path) }] });
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
              data={data}
              searchable
              renderOption={({ option }) => (
                <Text size="sm">
                  <UserText>{shortLabel.get(option.value) ?? option.label}</UserText>
                </Text>
              )}
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
