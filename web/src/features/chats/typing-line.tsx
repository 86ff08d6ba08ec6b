import { Text } from '@mantine/core';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useClientTyping } from './typing.ts';

/** 'The client is typing…' under the conversation while the client's typing signal holds. */
export function TypingLine({ chatId }: { chatId: string }) {
  const { t } = useTranslation();
  const typing = useClientTyping(chatId);
  return (
    <Text size="xs" c="gray.7" px="md" role="status" data-testid="client-typing" style={{ minHeight: 18 }}>
      {typing ? t('conversation.clientTyping') : ''}
    </Text>
  );
}
