import { Box, Loader, Paper, ScrollArea, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { TemplateDto } from '@smartconnect/contracts';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { useTemplates } from './api.ts';
import { TemplateText } from './template-text.tsx';

/** The templates of the caller's teams matching `query`, with the highlighted one and arrow-key movement. */
export function useTemplateChoice(query: string, enabled: boolean) {
  const [debounced] = useDebouncedValue(query.trim(), 150);
  const list = useTemplates(debounced, { enabled });
  const items = list.data ?? [];
  const [active, setActive] = useState(0);
  // A new result starts at its first template.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the list changes
  useEffect(() => setActive(0), [list.data]);
  return {
    items,
    active: Math.min(active, Math.max(items.length - 1, 0)),
    setActive,
    loading: list.isLoading || list.isFetching,
    /** Arrows move the highlight; Enter gives the highlighted template. Answers whether the key was used. */
    keyDown(e: KeyboardEvent, pick: (t: TemplateDto) => void): boolean {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (!items.length) return false;
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((a) => (Math.min(a, items.length - 1) + step + items.length) % items.length);
        return true;
      }
      if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing && items.length) {
        e.preventDefault();
        pick(items[Math.min(active, items.length - 1)]);
        return true;
      }
      return false;
    },
  };
}
export type TemplateChoice = ReturnType<typeof useTemplateChoice>;

export const optionId = (listId: string, i: number) => `${listId}-option-${i}`;

/** The list of templates to choose from (a listbox: the input keeps the focus and points at the highlighted one). */
export function TemplateOptions({
  id,
  choice,
  onPick,
}: {
  id: string;
  choice: TemplateChoice;
  onPick: (t: TemplateDto) => void;
}) {
  const { t } = useTranslation();
  if (!choice.items.length)
    return (
      <Box p="sm" aria-live="polite">
        {choice.loading ? (
          <Loader size="xs" aria-label={t('templates.picker.loading')} />
        ) : (
          <Text size="sm" c="gray.7" data-testid="template-options-empty">
            {t('templates.picker.empty')}
          </Text>
        )}
      </Box>
    );
  return (
    <ScrollArea.Autosize mah={260} type="auto">
      <Box id={id} role="listbox" aria-label={t('templates.picker.listLabel')} data-testid="template-options">
        {choice.items.map((item, i) => (
          <Box
            key={item.id}
            id={optionId(id, i)}
            role="option"
            aria-selected={i === choice.active}
            px="sm"
            py={6}
            style={{
              cursor: 'pointer',
              borderRadius: 6,
              background: i === choice.active ? 'var(--mantine-color-brand-0)' : undefined,
            }}
            onMouseEnter={() => choice.setActive(i)}
            // The input keeps the focus: the pick happens before a blur could close the list.
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(item);
            }}
            data-testid="template-option"
          >
            <Text size="xs" c="gray.7" fw={600}>
              <UserText>{item.category.name}</UserText>
            </Text>
            <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              <TemplateText text={item.text} />
            </Text>
          </Box>
        ))}
      </Box>
    </ScrollArea.Autosize>
  );
}

/** The frame of the '/' quick search above the message box. */
export function SlashFrame({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder shadow="sm" p={4} data-testid="slash-templates">
      <Text size="xs" c="gray.7" px="sm" py={2}>
        {t('templates.picker.hint')}
      </Text>
      {children}
    </Paper>
  );
}
