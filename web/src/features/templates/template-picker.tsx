import { ActionIcon, Popover, TextInput, Tooltip } from '@mantine/core';
import { fillTemplate, type TemplateDto } from '@smartconnect/contracts';
import { IconMessageBolt, IconSearch } from '@tabler/icons-react';
import { type KeyboardEvent, type RefObject, useEffect, useId, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess } from '../../shared/session.tsx';
import { slashQuery } from './slash.ts';
import { optionId, SlashFrame, TemplateOptions, useTemplateChoice } from './template-options.tsx';
import { useTemplateValues } from './use-template-values.ts';

/** Whether the composer offers templates: the plan option is on (the server enforces it as well). */
export const useTemplatesEnabled = () => useAccess().has('OPTION_TEMPLATE');

/**
 * The templates button beside the message box: a search over the templates of the operator's teams; the chosen one
 * is filled for the open chat and inserted at the cursor for editing before sending.
 */
export function TemplatesButton({
  chatId,
  disabled,
  onInsert,
}: {
  chatId: string;
  disabled: boolean;
  onInsert: (text: string) => void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const choice = useTemplateChoice(search, opened);
  const values = useTemplateValues(chatId);
  const listId = useId();
  const pick = (item: TemplateDto) => {
    setOpened(false);
    setSearch('');
    onInsert(fillTemplate(item.text, values()));
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="top-start" width={360} shadow="md" trapFocus>
      <Popover.Target>
        <Tooltip label={t('templates.picker.button')}>
          <ActionIcon
            variant="subtle"
            color="gray.7"
            size="lg"
            aria-label={t('templates.picker.button')}
            aria-expanded={opened}
            aria-haspopup="dialog"
            disabled={disabled}
            onClick={() => setOpened((o) => !o)}
            data-testid="templates-button"
          >
            <IconMessageBolt size={20} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p={4}>
        <TextInput
          data-autofocus
          size="sm"
          m={4}
          leftSection={<IconSearch size={16} aria-hidden />}
          placeholder={t('templates.picker.search')}
          aria-label={t('templates.picker.search')}
          aria-controls={choice.items.length ? listId : undefined}
          aria-activedescendant={choice.items.length ? optionId(listId, choice.active) : undefined}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => choice.keyDown(e, pick)}
          data-testid="templates-search-input"
        />
        <TemplateOptions id={listId} choice={choice} onPick={pick} />
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * The '/' quick search: a message that starts with '/' lists the matching templates above the box; arrows choose,
 * Enter puts the filled template in place of the '/query' for editing, Escape closes the list.
 */
export function useSlashTemplates(opts: {
  chatId: string;
  text: string;
  setText: (text: string) => void;
  area: RefObject<HTMLTextAreaElement | null>;
  enabled: boolean;
}) {
  const { text, setText, area } = opts;
  // Escape closes the list for the text as it is; any change to the text opens it again.
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    if (dismissed !== null && dismissed !== text) setDismissed(null);
  }, [dismissed, text]);
  const query = opts.enabled ? slashQuery(text) : null;
  const open = query !== null && dismissed !== text;
  const choice = useTemplateChoice(query ?? '', open);
  const values = useTemplateValues(opts.chatId);
  const listId = useId();
  const pick = (item: TemplateDto) => {
    const filled = fillTemplate(item.text, values());
    setText(filled);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(filled.length, filled.length);
    });
  };
  return {
    /** Handles the list's keys before the message box does (Enter then picks instead of sending). */
    onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean {
      if (!open) return false;
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setDismissed(text);
        return true;
      }
      return choice.keyDown(e, pick);
    },
    inputProps: {
      'aria-controls': open && choice.items.length ? listId : undefined,
      'aria-activedescendant': open && choice.items.length ? optionId(listId, choice.active) : undefined,
    },
    menu: open ? (
      <SlashFrame>
        <TemplateOptions id={listId} choice={choice} onPick={pick} />
      </SlashFrame>
    ) : null,
  };
}
