import { ActionIcon, Popover, SimpleGrid, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconMoodSmile } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';

/** A compact built-in set: what support conversations use, without a picker library and its data (~100 KB). */
const GROUPS = {
  smileys: '😀 😃 😄 😁 😊 🙂 😉 😍 😘 😎 🤗 🤔 😐 😅 😂 🤣 😇 🙃 😌 😔 😢 😭 😡 😱 😴 🤒 🥳 🤝',
  gestures: '👍 👎 👌 ✌️ 🤞 👏 🙌 🙏 👋 🤙 💪 👀 ✋ ☝️ 👉 👈',
  hearts: '❤️ 🧡 💛 💚 💙 💜 🖤 💔 💯 ✨ ⭐ 🔥 🎉 🎁',
  objects: '✅ ❌ ⚠️ ❓ ❗ ⏳ ⌛ 📞 📧 📦 🚚 💳 💰 🧾 📎 📅 🔒 🔑 💡 🛠️',
} as const;

/** The emoji button of the message box: a grid per group; a click inserts the emoji where the cursor is. */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="top-start" shadow="md" width={300} trapFocus>
      <Popover.Target>
        <Tooltip label={t('conversation.emoji')}>
          <ActionIcon
            variant="subtle"
            color="gray.7"
            size="lg"
            aria-label={t('conversation.emoji')}
            aria-expanded={opened}
            disabled={disabled}
            data-testid="emoji-button"
            onClick={() => setOpened((o) => !o)}
          >
            <IconMoodSmile size={20} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p="xs" data-testid="emoji-picker">
        <Stack gap={6} mah={260} style={{ overflowY: 'auto' }}>
          {(Object.keys(GROUPS) as (keyof typeof GROUPS)[]).map((g) => (
            <fieldset key={g} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
              <Text component="legend" size="xs" c="gray.7" fw={600} mb={2} p={0}>
                {t(`conversation.emojiGroups.${g}`)}
              </Text>
              <SimpleGrid cols={8} spacing={2} verticalSpacing={2}>
                {GROUPS[g].split(' ').map((e) => (
                  <UnstyledButton
                    key={e}
                    aria-label={e}
                    onClick={() => {
                      onPick(e);
                      setOpened(false);
                    }}
                    style={{ fontSize: 20, lineHeight: '30px', textAlign: 'center', borderRadius: 6 }}
                    className="sc-emoji"
                  >
                    {e}
                  </UnstyledButton>
                ))}
              </SimpleGrid>
            </fieldset>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
