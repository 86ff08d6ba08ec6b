import { ActionIcon, Group, Switch, Textarea, Tooltip } from '@mantine/core';
import { MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import { IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendMessage } from './api.ts';
import { useUpsertMessage } from './use-chat-cache.ts';

/** The message box: Enter sends, Shift+Enter starts a new line; the switch makes it an internal note. */
export function Composer({ chatId, disabledReason }: { chatId: string; disabledReason: string | null }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [internal, setInternal] = useState(false);
  const upsert = useUpsertMessage();
  const send = useMutation({
    mutationFn: () => sendMessage(chatId, text.trim(), internal),
    onSuccess: (m) => {
      upsert(m);
      setText('');
    },
  });
  const disabled = disabledReason !== null;
  const submit = () => {
    if (!disabled && text.trim() && !send.isPending) send.mutate();
  };
  return (
    <Group
      p="md"
      gap="sm"
      align="flex-end"
      wrap="nowrap"
      style={{
        borderTop: '1px solid var(--mantine-color-gray-3)',
        background: internal ? 'var(--mantine-color-yellow-0)' : undefined,
      }}
    >
      <Textarea
        style={{ flex: 1 }}
        autosize
        minRows={1}
        maxRows={6}
        maxLength={MESSAGE_TEXT_MAX}
        aria-label={internal ? t('chat.notePlaceholder') : t('chat.placeholder')}
        placeholder={disabledReason ?? (internal ? t('chat.notePlaceholder') : t('chat.placeholder'))}
        disabled={disabled}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <Switch
        label={t('chat.internal')}
        checked={internal}
        disabled={disabled}
        color="yellow"
        onChange={(e) => setInternal(e.currentTarget.checked)}
        mb={8}
      />
      <Tooltip label={t('chat.send')}>
        <ActionIcon
          size="lg"
          mb={2}
          aria-label={t('chat.send')}
          loading={send.isPending}
          disabled={disabled || !text.trim()}
          onClick={submit}
        >
          <IconSend size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
