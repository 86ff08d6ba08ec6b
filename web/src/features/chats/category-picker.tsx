import { Box, Button, Combobox, Text, useCombobox } from '@mantine/core';
import type { ChatDto } from '@smartconnect/contracts';
import { IconTag, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { flatten, pathText, useCategoryTree } from '../categories/api.ts';
import { setCategory } from './api.ts';
import { useChatChanged } from './use-chat-cache.ts';

/**
 * §2.6 top bar: the request category of an open chat (OPTION_CATEGORY). A button showing 'Category › Theme ›
 * Subtheme' opens a searchable list of what the chat's team may use, any level; the category can be removed.
 */
export function CategoryPicker({ chat }: { chat: ChatDto }) {
  const { t } = useTranslation();
  const changed = useChatChanged();
  const [search, setSearch] = useState('');
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setSearch('');
    },
    onDropdownOpen: () => combobox.focusSearchInput(),
  });
  const [opened, setOpened] = useState(false);
  const tree = useCategoryTree(opened, chat.team.id);
  const save = useMutation({
    mutationFn: (id: string | null) => setCategory(chat.id, id),
    onSuccess: (c) => {
      changed(c);
      notifySuccess(t(c.category ? 'requestCategories.chatSet' : 'requestCategories.chatRemoved'));
    },
  });
  const q = search.trim().toLocaleLowerCase();
  const nodes = flatten(tree.data ?? []).filter(
    (n) => !q || pathText(n.path).toLocaleLowerCase().includes(q),
  );
  const current = chat.category ? pathText(chat.category.path) : null;
  const pick = (id: string | null) => {
    combobox.closeDropdown();
    if (id !== (chat.category?.id ?? null)) save.mutate(id);
  };
  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => pick(id)}
      width={340}
      position="bottom-end"
      withinPortal
    >
      <Combobox.Target withAriaAttributes={false}>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconTag size={16} aria-hidden />}
          rightSection={<Combobox.Chevron />}
          onClick={() => {
            setOpened(true);
            combobox.toggleDropdown();
          }}
          loading={save.isPending}
          maw={280}
          aria-label={
            current
              ? t('requestCategories.pickerCurrent', { path: isolate(current) })
              : t('requestCategories.pickerEmpty')
          }
          title={current ?? undefined}
          data-testid="category-picker"
        >
          <Text size="xs" truncate>
            {current ? <UserText>{current}</UserText> : t('chat.category')}
          </Text>
        </Button>
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Search
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            combobox.updateSelectedOptionIndex();
          }}
          placeholder={t('requestCategories.searchPlaceholder')}
          aria-label={t('requestCategories.searchPlaceholder')}
        />
        <Combobox.Options mah={320} style={{ overflowY: 'auto' }} aria-label={t('chat.category')}>
          {tree.isLoading ? (
            <Combobox.Empty>{t('common.loading')}</Combobox.Empty>
          ) : tree.isError ? (
            <Combobox.Empty>{t('common.loadFailed')}</Combobox.Empty>
          ) : nodes.length === 0 ? (
            <Combobox.Empty>{t('chat.nothingFound')}</Combobox.Empty>
          ) : (
            nodes.map((n) => (
              <Combobox.Option
                value={n.id}
                key={n.id}
                active={n.id === chat.category?.id}
                data-testid="category-option"
              >
                <Box pl={q ? 0 : (n.level - 1) * 14}>
                  <Text size="sm" fw={n.level === 1 ? 600 : 400}>
                    <UserText>{n.name}</UserText>
                  </Text>
                  {n.level > 1 && (
                    <Text size="xs" c="gray.7">
                      <UserText>{pathText(n.path.slice(0, -1))}</UserText>
                    </Text>
                  )}
                </Box>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
        {chat.category && (
          <Combobox.Footer>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              fullWidth
              leftSection={<IconX size={14} aria-hidden />}
              onClick={() => pick(null)}
            >
              {t('requestCategories.remove')}
            </Button>
          </Combobox.Footer>
        )}
      </Combobox.Dropdown>
    </Combobox>
  );
}
