import { ActionIcon, Group, Kbd, Popover, Table, Text, Tooltip } from '@mantine/core';
import { IconKeyboard } from '@tabler/icons-react';
import { Fragment } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { SHORTCUTS } from './keys.ts';

/** The keyboard button of the chat center: a popover listing every shortcut (also opened by '?'). */
export function ShortcutsHelp({
  opened,
  onChange,
}: {
  opened: boolean;
  onChange: (opened: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Popover
      opened={opened}
      onChange={onChange}
      position="bottom-end"
      shadow="md"
      width={320}
      withArrow
      trapFocus
      returnFocus
    >
      <Popover.Target>
        <Tooltip label={t('shortcuts.open')}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('shortcuts.open')}
            aria-expanded={opened}
            data-testid="shortcuts-button"
            onClick={() => onChange(!opened)}
          >
            <IconKeyboard size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown aria-label={t('shortcuts.title')} data-testid="shortcuts-help">
        <Text fw={650} mb="xs">
          {t('shortcuts.title')}
        </Text>
        <Table verticalSpacing={4} withRowBorders={false}>
          <Table.Tbody>
            {SHORTCUTS.map((s) => (
              <Table.Tr key={s.label}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Group gap={4} wrap="nowrap">
                    {s.keys.map((combo, i) => (
                      <Fragment key={combo.join('+')}>
                        {i > 0 && (
                          <Text span size="xs" c="gray.7">
                            /
                          </Text>
                        )}
                        {combo.map((k) => (
                          <Kbd key={k} size="xs">
                            {k === 'Esc' || k === 'Enter' || k === 'Shift' || k === 'Alt'
                              ? t(`shortcuts.key.${k}`)
                              : k}
                          </Kbd>
                        ))}
                      </Fragment>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{t(s.label)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Popover.Dropdown>
    </Popover>
  );
}
