import { ActionIcon, Popover, ScrollArea, Tooltip } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { KbSearch } from './kb-search.tsx';

/** The knowledge-base button beside the message box: the same search as the side panel's, in a popover. */
export function KbButton({ disabled, onInsert }: { disabled: boolean; onInsert: (text: string) => void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  // The dialog is named by its button (the tooltip between them would otherwise keep the button's id from it).
  const id = useId();
  return (
    <Popover
      id={id}
      opened={opened}
      onChange={setOpened}
      position="top-start"
      width={380}
      shadow="md"
      trapFocus
    >
      <Popover.Target>
        <Tooltip label={t('kb.button')} disabled={opened}>
          <ActionIcon
            id={`${id}-target`}
            variant="subtle"
            color="gray.7"
            size="lg"
            aria-label={t('kb.button')}
            aria-expanded={opened}
            aria-haspopup="dialog"
            disabled={disabled}
            onClick={() => setOpened((o) => !o)}
            data-testid="kb-button"
          >
            <IconBook2 size={20} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <ScrollArea.Autosize mah={420} type="auto">
          <KbSearch
            autoFocus
            disabled={disabled}
            testId="kb-composer-search"
            onInsert={(text) => {
              setOpened(false);
              onInsert(text);
            }}
          />
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
