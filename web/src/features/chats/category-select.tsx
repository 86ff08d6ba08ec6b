import { Select } from '@mantine/core';
import type { ChatDto } from '@smartconnect/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { setCategory, useCategories } from './api.ts';
import { useChatChanged } from './use-chat-cache.ts';

/** §2.6 top bar: the request category of an open chat (OPTION_CATEGORY), set or removed in place. */
export function CategorySelect({ chat }: { chat: ChatDto }) {
  const { t } = useTranslation();
  const changed = useChatChanged();
  const categories = useCategories(true);
  const save = useMutation({
    mutationFn: (id: string | null) => setCategory(chat.id, id),
    onSuccess: changed,
  });
  const data = (categories.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  if (chat.category && !data.some((d) => d.value === chat.category?.id))
    data.push({ value: chat.category.id, label: chat.category.name });
  return (
    <Select
      size="xs"
      w={160}
      aria-label={t('chat.category')}
      placeholder={t('chat.category')}
      data={data}
      value={chat.category?.id ?? null}
      onChange={(v) => save.mutate(v)}
      clearable
      disabled={save.isPending}
      nothingFoundMessage={t('chat.nothingFound')}
    />
  );
}
